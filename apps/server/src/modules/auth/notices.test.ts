import { api, settingsSchema, settingsUpdateBodySchema, type SettingsUpdateBody } from '@pollscope/contract';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { client, createTestAppWithMail, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { recipientOf, type TestMailServer } from '../../test/mail-server.js';

let mailbox: TestMailServer;
let ctx: TestContext;
const PUBLIC_URL = 'https://pollscope.example';

beforeAll(async () => {
  ({ ctx, mailbox } = await createTestAppWithMail({ publicUrl: PUBLIC_URL }));
});
afterAll(() => ctx?.close());

const mailsTo = (address: string) => mailbox.received.filter((mail) => recipientOf(mail) === address.toLowerCase());

/**
 * The one mail to `address`, once it has come through the mail server. A mail is queued in the transaction of what it
 * tells.
 */
async function onlyMailTo(address: string): Promise<ParsedMail> {
  const mail = await vi.waitFor(
    () => {
      const [first] = mailsTo(address);
      expect(first).toBeDefined();
      return first;
    },
    { timeout: 10_000, interval: 50 },
  );
  expect(mailsTo(address)).toHaveLength(1);
  return mail;
}

/** No mail to `address` is waiting in the outbox or came through the mail server (a sent mail leaves the outbox). */
async function expectNoMailTo(address: string): Promise<void> {
  expect(
    await ctx.database.db
      .selectFrom('mail_outbox')
      .select('id')
      .where('recipient', '=', address.toLowerCase())
      .execute(),
  ).toEqual([]);
  expect(mailsTo(address)).toEqual([]);
}

async function changeSettings(person: TestUser, change: Partial<SettingsUpdateBody>): Promise<Date> {
  const { email, notification } = await person.api.get(api.settings, settingsSchema);
  const at = new Date();
  await person.api.post(
    api.settings,
    settingsUpdateBodySchema,
    { email, notification, current_password: 'correct horse', ...change },
    settingsSchema,
  );
  return at;
}

/** Asks for a new email and confirms it with the link mailed to it; returns when it took effect. */
async function changeEmail(person: TestUser, email: string, change: Partial<SettingsUpdateBody> = {}): Promise<Date> {
  await changeSettings(person, { email, ...change });
  const link = await onlyMailTo(email);
  const token = /confirm-email\?token=([\w-]+)/.exec(link.text ?? '')![1];
  const at = new Date();
  expect((await client(ctx.app).raw('POST', api.confirmEmail, { token })).status).toBe(200);
  return at;
}

/** "5 March 2025 at 14:05 UTC", within the minute of `at` or the next. */
function whenPattern(at: Date): RegExp {
  const minutes = [at, new Date(at.getTime() + 60_000)].map((time) => time.toISOString().slice(11, 16));
  return new RegExp(`on ${at.getUTCDate()} \\w+ ${at.getUTCFullYear()} at (${minutes.join('|')}) UTC`);
}

describe('a notice to the address the account had', () => {
  it('tells of a new password, when, and what to do if it was not them', async () => {
    const person = await signUp(ctx);
    const at = await changeSettings(person, { password: 'a brand new horse' });
    const notice = await onlyMailTo(person.email);
    expect(notice.subject).toBe('Your Pollscope password was changed');
    expect(notice.text).toMatch(whenPattern(at));
    expect(notice.text).toContain('If this was you, there is nothing to do.');
    expect(notice.text).toContain(
      'If it was not you, someone else had your password: choose a new one at once with "Forgot password?" on the sign-in page',
    );
    expect(notice.text).toContain(`Choose a new password: ${PUBLIC_URL}/forgot-password`);
    expect(notice.html).toContain(`href="${PUBLIC_URL}/forgot-password"`);
  });

  it('tells the old address of a new one once it is confirmed, and mails the new one only the link', async () => {
    const person = await signUp(ctx);
    const newAddress = `moved-${person.id}@example.com`;
    const at = await changeEmail(person, newAddress);
    const notice = await onlyMailTo(person.email);
    expect(notice.subject).toBe('Your Pollscope email was changed');
    expect(notice.text).toContain(
      `The email of your Pollscope account was changed from ${person.email.toLowerCase()} to ${newAddress}`,
    );
    expect(notice.text).toMatch(whenPattern(at));
    expect(notice.text).toContain('write to us at once from this address');
    expect(notice.text).toContain(`Write to us: ${PUBLIC_URL}/contact`);
    expect(mailsTo(newAddress).map((mail) => mail.subject)).toEqual(['Confirm your new Pollscope email']);
  });

  it('tells of a new password at once, and of a new email when it takes effect, each to the old address', async () => {
    const person = await signUp(ctx);
    await changeSettings(person, {
      email: `both-${person.id}@example.com`,
      password: 'a brand new horse',
      current_password: 'correct horse',
    });
    const passwordNotice = await onlyMailTo(person.email);
    expect(passwordNotice.subject).toBe('Your Pollscope password was changed');
    const link = await onlyMailTo(`both-${person.id}@example.com`);
    const token = /confirm-email\?token=([\w-]+)/.exec(link.text ?? '')![1];
    expect((await client(ctx.app).raw('POST', api.confirmEmail, { token })).status).toBe(200);
    await vi.waitFor(() => expect(mailsTo(person.email)).toHaveLength(2), { timeout: 10_000, interval: 50 });
    const emailNotice = mailsTo(person.email)[1];
    expect(emailNotice.subject).toBe('Your Pollscope email was changed');
    expect(emailNotice.text).toContain(`to both-${person.id}@example.com`);
  });

  it('is not sent when only the notification choice changes, nor when the same email is saved again', async () => {
    const person = await signUp(ctx);
    await changeSettings(person, { notification: false });
    await changeSettings(person, { email: person.email.toUpperCase() });
    await expectNoMailTo(person.email);
  });
});
