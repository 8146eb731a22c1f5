import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** The address a mail was sent to. */
export const recipientOf = (mail: ParsedMail): string | undefined => [mail.to].flat()[0]?.text;

/** An SMTP server for the tests, keeping every mail it accepts, parsed. */
export interface TestMailServer {
  /** The SMTP_URL that sends to it, with a user and password it accepts. */
  url: string;
  received: ParsedMail[];
  /** Stops listening: connections to it are refused until `start`. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  /**
   * Until `hold(null)`, holds each new sender at a stage, answering nothing: before the greeting
   * (nothing sent yet), or after a mail's data, kept in `received`, and before its reply (sent,
   * though the sender cannot know it).
   */
  hold(stage: 'greeting' | 'reply' | null): void;
  /** Senders held since the last `hold`. */
  readonly held: number;
}

/** Listens on a free port of 127.0.0.1, and again on the same one after `stop`. */
export async function startMailServer(): Promise<TestMailServer> {
  const received: ParsedMail[] = [];
  let port = 0;
  let server: SMTPServer | null = null;
  let holding: 'greeting' | 'reply' | null = null;
  let held = 0;
  const listen = async () => {
    server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, callback) =>
        auth.username === 'pollscope' && auth.password === 'secret'
          ? callback(null, { user: auth.username })
          : callback(new Error('wrong password')),
      onConnect: (_session, callback) => {
        if (holding === 'greeting') held += 1;
        else callback();
      },
      onData: (stream, _session, callback) => {
        simpleParser(stream).then((mail) => {
          received.push(mail);
          if (holding === 'reply') held += 1;
          else callback();
        }, callback);
      },
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  };
  await listen();
  return {
    url: `smtp://pollscope:secret@127.0.0.1:${port}`,
    received,
    stop: () => new Promise<void>((resolve) => server!.close(resolve)),
    start: listen,
    hold: (stage) => {
      holding = stage;
      held = 0;
    },
    get held() {
      return held;
    },
  };
}
