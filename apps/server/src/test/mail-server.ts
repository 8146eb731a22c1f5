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
}

/** Listens on `port`, or on a free one: a server started before the test, as the browser tests' is, is told the port in advance. */
export async function startMailServer({ port: fixedPort = 0 }: { port?: number } = {}): Promise<TestMailServer> {
  const received: ParsedMail[] = [];
  let port = fixedPort;
  let server: SMTPServer | null = null;
  const listen = async () => {
    server = new SMTPServer({
      authOptional: true,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onAuth: (auth, _session, callback) =>
        auth.username === 'pollscope' && auth.password === 'secret' ? callback(null, { user: auth.username }) : callback(new Error('wrong password')),
      onData: (stream, _session, callback) => {
        simpleParser(stream).then((mail) => {
          received.push(mail);
          callback();
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
  };
}
