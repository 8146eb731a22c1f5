import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { createTestAppWithMail, withSecondInstance, type TestContext } from '../../test/helper.js';
import { queueMail, renderMail } from './index.js';
import type { TestMailServer } from '../../test/mail-server.js';

// Run by `npm test` on its PostgreSQL pass: a SQLite file is written by one instance.
if (!process.env.TEST_DATABASE_URL) throw new Error('This test needs TEST_DATABASE_URL');

let mailbox: TestMailServer;
/** Two instances on one database, each with its worker. */
let one: TestContext;
let two: FastifyInstance;

beforeAll(async () => {
  ({ ctx: one, mailbox } = await createTestAppWithMail());
  two = await withSecondInstance(one);
});
afterAll(() => one?.close());

it('sends each of many mails exactly once with two instances sending', async () => {
  const count = 120;
  const content = renderMail({
    title: 'Welcome',
    paragraphs: ['Ask your first question.'],
    footer: 'You signed up on Pollscope.',
  });
  await one.database.db.transaction().execute(async (trx) => {
    for (let index = 0; index < count; index += 1)
      await queueMail(trx, { to: `person${index}@example.com`, subject: `Welcome ${index}`, ...content });
  });
  await vi.waitFor(() => expect(mailbox.received.length).toBeGreaterThanOrEqual(count), {
    timeout: 60_000,
    interval: 100,
  });
  // A round of each worker after: a mail left in the outbox, to be sent twice, would come now.
  await Promise.all([one.app.mail.round(), two.mail.round()]);
  const subjects = mailbox.received.map((mail) => mail.subject);
  expect(subjects).toHaveLength(count);
  expect(new Set(subjects).size).toBe(count);
  // And each is gone from the outbox, so that neither worker sends it again later.
  const left = await one.database.db.selectFrom('mail_outbox').select('id').execute();
  expect(left).toHaveLength(0);
});
