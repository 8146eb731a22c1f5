import {
  api,
  EMAIL_CONFIRM_MINUTES,
  emailConfirmAnswerSchema,
  settingsSchema,
  tokenResponseSchema,
} from '@pollscope/contract';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { client, createTestAppWithMail, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { recipientOf, type TestMailServer } from '../../test/mail-server.js';
import { hashToken } from './sessions.js';

let mailbox: TestMailServer;
let ctx: TestContext;
const PUBLIC_URL = 'https://pollscope.example';
const CONFIRM_SUBJECT = 'Confirm your new Pollscope email';
const CHANGED_SUBJECT = 'Your Pollscope email was changed';

beforeAll(async () => {
  ({ ctx, mailbox } = await createTestAppWithMail({ publicUrl: PUBLIC_URL }));
});
afterAll(() => ctx?.close());

const anyone = () => client(ctx.app);
const mailsTo = (address: string, subject: string) =>
  mailbox.received.filter((mail) => recipientOf(mail) === address.toLowerCase() && mail.subject === subject);
/** The spec's text. */
const EMAIL_LINK_UNUSABLE = 'This link does not work any more: it was used, it lapsed, or it is not one we sent';
const confirm = (token: string) => anyone().raw('POST', api.confirmEmail, { token });
const signIn = (email: string, password = 'correct horse') => anyone().raw('POST', api.login, { email, password });
const tokenRows = (userId: number) =>
  ctx.database.db.selectFrom('email_change_tokens').selectAll().where('user_id', '=', userId).execute();

/** The `count`th mail with `subject` to `address`, once it has come through the mail server. */
function mailTo(address: string, subject: string, count = 1): Promise<ParsedMail> {
  return vi.waitFor(
    () => {
      const mails = mailsTo(address, subject);
      expect(mails.length).toBeGreaterThanOrEqual(count);
      return mails[count - 1];
    },
    { timeout: 10_000, interval: 50 },
  );
}

/** The token of the confirmation link, after checking that the text and the HTML carry the same link. */
function tokenIn(mail: ParsedMail): string {
  const match = /https:\/\/pollscope\.example\/confirm-email\?token=([\w-]+)/.exec(mail.text ?? '');
  expect(match, mail.text).not.toBeNull();
  expect(mail.html).toContain(`href="${PUBLIC_URL}/confirm-email?token=${match![1]}"`);
  return match![1];
}

/** Asks for `email` as the person's new address and returns the token of the link mailed to it. */
async function askFor(person: TestUser, email: string, count = 1): Promise<string> {
  const reply = await person.api.raw('POST', api.settings, {
    email,
    notification: true,
    current_password: 'correct horse',
  });
  expect(reply.status).toBe(200);
  return tokenIn(await mailTo(email, CONFIRM_SUBJECT, count));
}

// Issue 30, finding 4: a new email was used at once, never confirmed.
describe('a new email', () => {
  it('is mailed a link, stored hashed for 30 minutes, that makes it the account’s; only then is the old address told', async () => {
    const person = await signUp(ctx);
    const newAddress = `confirmed-${person.id}@example.com`;
    const token = await askFor(person, newAddress);

    const [row] = await tokenRows(person.id);
    expect(row.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(EMAIL_CONFIRM_MINUTES * 60_000);
    expect(await person.api.get(api.settings, settingsSchema)).toEqual({
      email: person.email.toLowerCase(),
      notification: true,
      pending_email: newAddress,
      language: 'en',
      question_languages: null,
    });
    // Nothing told to the old address yet: nothing changed.
    expect(
      await ctx.database.db
        .selectFrom('mail_outbox')
        .select('id')
        .where('recipient', '=', person.email.toLowerCase())
        .execute(),
    ).toEqual([]);
    expect(mailsTo(person.email, CHANGED_SUBJECT)).toEqual([]);

    const confirmed = await confirm(token);
    expect(confirmed.status).toBe(200);
    expect(confirmed.parse(emailConfirmAnswerSchema.strict())).toEqual({ email: newAddress });
    expect(await person.api.get(api.settings, settingsSchema)).toEqual({
      email: newAddress,
      notification: true,
      pending_email: null,
      language: 'en',
      question_languages: null,
    });
    expect((await signIn(newAddress)).status).toBe(200);
    expect((await signIn(person.email)).status).toBe(400);
    const notice = await mailTo(person.email, CHANGED_SUBJECT);
    expect(notice.text).toContain(`changed from ${person.email.toLowerCase()} to ${newAddress}`);
    expect(await tokenRows(person.id)).toEqual([]);
  });

  it('works once, not after 30 minutes, and only from the latest link', async () => {
    const person = await signUp(ctx);
    const first = await askFor(person, `first-${person.id}@example.com`);
    const second = await askFor(person, `second-${person.id}@example.com`);
    expect((await person.api.get(api.settings, settingsSchema)).pending_email).toBe(`second-${person.id}@example.com`);
    const older = await confirm(first);
    expect(older.status).toBe(400);
    expect(older.error()).toEqual({ message: EMAIL_LINK_UNUSABLE });

    expect((await confirm(second)).status).toBe(200);
    expect((await confirm(second)).status).toBe(400);
    expect((await person.api.get(api.settings, settingsSchema)).email).toBe(`second-${person.id}@example.com`);

    const lapsing = await askFor(person, `lapsed-${person.id}@example.com`);
    await ctx.database.db
      .updateTable('email_change_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('user_id', '=', person.id)
      .execute();
    expect((await person.api.get(api.settings, settingsSchema)).pending_email).toBeNull();
    expect((await confirm(lapsing)).status).toBe(400);
    expect((await person.api.get(api.settings, settingsSchema)).email).toBe(`second-${person.id}@example.com`);
  });

  it('is refused with 409 when someone registered it meanwhile, and the account keeps its address', async () => {
    const person = await signUp(ctx);
    const contested = `contested-${person.id}@example.com`;
    const token = await askFor(person, contested);
    await signUp(ctx, { email: contested });
    const reply = await confirm(token);
    expect(reply.status).toBe(409);
    expect(reply.error().errors).toEqual({ email: 'This email is already registered' });
    expect((await person.api.get(api.settings, settingsSchema)).email).toBe(person.email.toLowerCase());
  });

  it('refuses a token that was never mailed, and one of no length', async () => {
    expect((await confirm('not-a-mailed-token')).status).toBe(400);
    const empty = await confirm('');
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.error().errors ?? {})).toEqual(['token']);
  });
});

// Issue 30, finding 9: after a change of email and password, an old unsubscribe link still turned notifications off.
describe('unsubscribe links', () => {
  it('stop working when the email changes', async () => {
    const person = await signUp(ctx);
    // As the first notification mail made it.
    await ctx.database.db
      .updateTable('users')
      .set({ unsubscribe_token: 'link-mailed-to-the-old-address' })
      .where('id', '=', person.id)
      .execute();
    expect((await confirm(await askFor(person, `unsubscribed-${person.id}@example.com`))).status).toBe(200);

    const oldLink = await ctx.app.inject({ method: 'POST', url: api.unsubscribe('link-mailed-to-the-old-address') });
    expect(oldLink.statusCode).toBe(404);
    expect((await person.api.get(api.settings, settingsSchema)).notification).toBe(true);
  });

  it('stop working when the password changes', async () => {
    const person = await signUp(ctx);
    await ctx.database.db
      .updateTable('users')
      .set({ unsubscribe_token: 'link-of-before-the-password' })
      .where('id', '=', person.id)
      .execute();
    const changed = await person.api.raw('POST', api.settings, {
      email: person.email,
      notification: true,
      password: 'battery staple',
      current_password: 'correct horse',
    });
    expect(changed.status).toBe(200);
    expect(
      (await ctx.app.inject({ method: 'POST', url: api.unsubscribe('link-of-before-the-password') })).statusCode,
    ).toBe(404);
    expect((await person.api.get(api.settings, settingsSchema)).notification).toBe(true);
  });
});

// Issue 43, finding 4: a change of email asked for by someone who knew the password outlived a new password, and its
// link still took the account.
describe('a change of email waiting for its link', () => {
  const RESET_SUBJECT = 'Choose a new Pollscope password';
  const PENDING = 'A change of the email of this account to another address is waiting to be confirmed';
  /** Asks for a link to choose a new password and returns the `count`th such mail, once it has come. */
  const resetMail = async (person: TestUser, count: number) => {
    expect((await anyone().raw('POST', api.passwordReset, { email: person.email })).status).toBe(200);
    return mailTo(person.email, RESET_SUBJECT, count);
  };

  it('is told of in the mail to choose a new password, and ends with the new password; the account keeps its address', async () => {
    const person = await signUp(ctx);
    expect((await resetMail(person, 1)).text).not.toContain(PENDING);
    const intruders = `intruder-${person.id}@example.com`;
    const intrudersLink = await askFor(person, intruders);
    const mail = await resetMail(person, 2);
    expect(mail.text).toContain(`${PENDING}; choosing a new password cancels it.`);

    const token = /reset-password\?token=([\w-]+)/.exec(mail.text ?? '')![1];
    const reset = await anyone().raw('POST', api.passwordResetConfirm, { token, password: 'a brand new horse' });
    expect(reset.status).toBe(200);
    const late = await confirm(intrudersLink);
    expect(late.status).toBe(400);
    expect(late.error()).toEqual({ message: EMAIL_LINK_UNUSABLE });
    const signedIn = client(ctx.app, reset.parse(tokenResponseSchema).token);
    expect(await signedIn.get(api.settings, settingsSchema)).toEqual({
      email: person.email.toLowerCase(),
      notification: true,
      pending_email: null,
      language: 'en',
      question_languages: null,
    });
    expect((await signIn(person.email, 'a brand new horse')).status).toBe(200);
    expect((await signIn(intruders, 'a brand new horse')).status).toBe(400);
  });

  it('ends when the password is changed in the settings, unless asked for in the same change', async () => {
    const person = await signUp(ctx);
    const intrudersLink = await askFor(person, `intruder-${person.id}@example.com`);
    const changed = await person.api.raw('POST', api.settings, {
      email: person.email,
      notification: true,
      password: 'battery staple',
      current_password: 'correct horse',
    });
    expect(changed.status).toBe(200);
    expect(changed.parse(settingsSchema).pending_email).toBeNull();
    expect((await confirm(intrudersLink)).error()).toEqual({ message: EMAIL_LINK_UNUSABLE });
    expect((await person.api.get(api.settings, settingsSchema)).email).toBe(person.email.toLowerCase());

    // A new address asked for with a new password is the owner's own wish: its link works.
    const movedTo = `moved-${person.id}@example.com`;
    const both = await person.api.raw('POST', api.settings, {
      email: movedTo,
      notification: true,
      password: 'another staple',
      current_password: 'battery staple',
    });
    expect(both.status).toBe(200);
    expect((await confirm(tokenIn(await mailTo(movedTo, CONFIRM_SUBJECT)))).status).toBe(200);
    expect((await person.api.get(api.settings, settingsSchema)).email).toBe(movedTo);
  });
});
