import { accountExportSchema, api, type AccountExport } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestAppWithMail, signUp, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  const started = await createTestAppWithMail();
  ctx = started.ctx;
  // The mail server is down: what is queued waits in the outbox (its next try a minute on), as an export may find it.
  await started.mailbox.stop();
});
afterAll(() => ctx?.close());

async function mailWaitingFor(person: TestUser): Promise<AccountExport['mail_waiting']> {
  const reply = await person.api.raw('GET', api.exportAccount);
  expect(reply.status).toBe(200);
  return accountExportSchema.parse(reply.json()).mail_waiting;
}

/** Moves the person to `email`, as a confirmed change of email does. */
const moveTo = (person: TestUser, email: string) =>
  ctx.database.db.updateTable('users').set({ email }).where('id', '=', person.id).execute();

describe('mail waiting, in an export', () => {
  it('is listed for the account it was written for, never for the next owner of its address', async () => {
    const stamp = Date.now();
    const address = `handed-on-${stamp}@example.com`;
    const before = await signUp(ctx, { email: address });
    expect((await client(ctx.app).raw('POST', api.passwordReset, { email: address })).status).toBe(200);
    await moveTo(before, `moved-${stamp}@example.com`);
    expect(
      await ctx.database.db.selectFrom('mail_outbox').select('subject').where('recipient', '=', address).execute(),
    ).toEqual([{ subject: 'Choose a new Pollscope password' }]);

    const after = await signUp(ctx, { email: address });
    expect(await mailWaitingFor(after)).toEqual([]);
    expect((await mailWaitingFor(before)).map(({ subject }) => subject)).toEqual(['Choose a new Pollscope password']);

    // Deleted, the account leaves the mail written for it to the address it had, and still nobody else sees it.
    expect((await before.api.raw('POST', api.deleteAccount, { password: 'correct horse' })).status).toBe(204);
    expect(
      await ctx.database.db.selectFrom('mail_outbox').select('subject').where('recipient', '=', address).execute(),
    ).toHaveLength(1);
    expect(await mailWaitingFor(after)).toEqual([]);
  });

  it('lists what is written for the account at its own address', async () => {
    const person = await signUp(ctx);
    expect((await client(ctx.app).raw('POST', api.passwordReset, { email: person.email })).status).toBe(200);
    expect((await mailWaitingFor(person)).map(({ subject }) => subject)).toEqual(['Choose a new Pollscope password']);
  });
});
