import { api, connectedSchema, registerBodySchema, tokenResponseSchema } from '@pollscope/contract';
import type { AddressObject } from 'mailparser';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/index.js';
import { createTestDatabase, type TestDatabase } from '../../test/helper.js';
import { startMailServer, type TestMailServer } from '../../test/mail-server.js';
import { serverClient, startServer, type ServerProcess } from '../../test/server-process.js';

let mailbox: TestMailServer;
let database: TestDatabase;
let handle: DatabaseHandle;
const servers: ServerProcess[] = [];
beforeAll(async () => {
  mailbox = await startMailServer();
  database = await createTestDatabase();
});
// Each test's servers go with it, so that only that test's server sends its mail.
afterEach(() => Promise.all(servers.splice(0).map((server) => server.stop())));
afterAll(async () => {
  await handle?.close();
  await mailbox?.stop();
  await database?.drop();
});

/** The server as it runs in production, its notification mail queued a second after what it tells. */
async function start(): Promise<ServerProcess> {
  const server = await startServer(database.url, { SMTP_URL: mailbox.url, EMAIL_BATCH_SECONDS: '1' });
  servers.push(server);
  handle ??= openDatabase(database.url, { poolSize: 1 });
  return server;
}

/** Someone new, whom Bob follows: a mail to them is queued a second later. Returns their address. */
async function followSomeone(server: ServerProcess, name: string): Promise<string> {
  const register = async (firstName: string) => {
    const email = `${firstName}-${process.pid}-${Date.now()}@example.com`.toLowerCase();
    const body = {
      firstName,
      birthDate: '1985-03-20',
      gender: 'F' as const,
      livingIn: 840,
      email,
      password: 'correct horse',
    };
    const { token } = await serverClient(server.baseUrl).post(
      api.register,
      registerBodySchema,
      body,
      tokenResponseSchema,
    );
    return { email, token };
  };
  const followee = await register(name);
  const { id } = await handle.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', followee.email)
    .executeTakeFirstOrThrow();
  await serverClient(server.baseUrl, (await register('Bob')).token).post(api.follow(id), connectedSchema);
  return followee.email;
}

const mailsTo = (address: string) =>
  mailbox.received.filter((mail) => (mail.to as AddressObject).value[0].address === address);
/** How many rounds the server's mail worker has ended, as its /metrics says. */
async function roundsOf(server: ServerProcess): Promise<number> {
  const metrics = await (await fetch(`${server.baseUrl}/metrics`)).text();
  return Number(/^pollscope_mail_rounds_total (\d+)$/m.exec(metrics)?.[1]);
}
/** Until the worker has ended a round begun after now, for a mail that must not come: one due would be sent in it. */
async function afterARound(server: ServerProcess): Promise<void> {
  // The round under way may have begun before; the one after it has not.
  const until = (await roundsOf(server)) + 2;
  await vi.waitFor(async () => expect(await roundsOf(server)).toBeGreaterThanOrEqual(until), {
    timeout: 15_000,
    interval: 50,
  });
}

/** Kills the server once a sender is held by the mail server, its mail queued and in hand. */
async function killWhileHeld(server: ServerProcess): Promise<void> {
  await vi.waitFor(() => expect(mailbox.held).toBeGreaterThan(0), { timeout: 15_000, interval: 20 });
  await server.stop('SIGKILL');
  expect(server.child.signalCode).toBe('SIGKILL');
  mailbox.hold(null);
}

it('sends a mail once after the server is killed between its commit and its sending', { timeout: 90_000 }, async () => {
  mailbox.hold('greeting');
  const address = await followSomeone(await start(), 'Ann');
  await killWhileHeld(servers.at(-1)!);
  expect(mailsTo(address)).toHaveLength(0);

  const restarted = await start();
  await vi.waitFor(() => expect(mailsTo(address)).toHaveLength(1), { timeout: 15_000, interval: 50 });
  expect(mailsTo(address)[0].subject).toBe('Bob followed you');
  await afterARound(restarted);
  expect(mailsTo(address)).toHaveLength(1);
});

it(
  'sends a mail at most once more, with the same Message-ID, after the server is killed between its sending and its record',
  { timeout: 90_000 },
  async () => {
    mailbox.hold('reply');
    const address = await followSomeone(await start(), 'Cat');
    await killWhileHeld(servers.at(-1)!);
    expect(mailsTo(address)).toHaveLength(1);

    const restarted = await start();
    await vi.waitFor(() => expect(mailsTo(address)).toHaveLength(2), { timeout: 15_000, interval: 50 });
    await afterARound(restarted);
    const [first, again] = mailsTo(address);
    expect(mailsTo(address)).toHaveLength(2);
    expect(again.messageId).toBe(first.messageId);
    expect(again.text).toBe(first.text);
  },
);
