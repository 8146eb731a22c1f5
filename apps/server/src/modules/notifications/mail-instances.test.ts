import { api, connectedSchema } from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import type { AddressObject } from 'mailparser';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestAppWithMail, signUp, withSecondInstance, type TestContext } from '../../test/helper.js';
import type { TestMailServer } from '../../test/mail-server.js';

// Run by `npm test` on its PostgreSQL pass: a SQLite file is written by one instance.
if (!process.env.TEST_DATABASE_URL) throw new Error('This test needs TEST_DATABASE_URL');

let mailbox: TestMailServer;
/** Two instances on one database, each looking for notification mail to queue every second. */
let one: TestContext;
let two: FastifyInstance;

beforeAll(async () => {
  ({ ctx: one, mailbox } = await createTestAppWithMail({ emailBatchSeconds: 1 }));
  two = await withSecondInstance(one);
});
afterAll(() => one?.close());

it('mails each person once for their notifications with two instances mailing', async () => {
  const follower = await signUp(one, { firstName: 'Bob' });
  const people = await Promise.all(Array.from({ length: 40 }, () => signUp(one)));
  await Promise.all(people.map((person) => follower.api.post(api.follow(person.id), connectedSchema)));
  const recipients = () => mailbox.received.map((mail) => (mail.to as AddressObject).value[0].address);
  await vi.waitFor(() => expect(recipients().length).toBeGreaterThanOrEqual(people.length), {
    timeout: 30_000,
    interval: 100,
  });
  // A round of each instance past the batch window, then of each mail worker: a person mailed twice would be now.
  const pastTheWindow = new Date(Date.now() + 2_000);
  await Promise.all([one.app.notificationMail.round(pastTheWindow), two.notificationMail.round(pastTheWindow)]);
  await Promise.all([one.app.mail.round(), two.mail.round()]);
  expect(recipients().sort()).toEqual(people.map((person) => person.email.toLowerCase()).sort());
  expect(mailbox.received.every((mail) => mail.subject === 'Bob followed you')).toBe(true);
});
