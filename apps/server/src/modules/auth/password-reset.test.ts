import {
  api,
  loginBodySchema,
  passwordResetAnswerSchema,
  PASSWORD_RESET_MINUTES,
  settingsSchema,
  settingsUpdateBodySchema,
  tokenResponseSchema,
} from '@pollscope/contract';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SYSTEM_EMAIL } from '../../db/schema.js';
import { client, createTestAppWithMail, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { recipientOf, type TestMailServer } from '../../test/mail-server.js';
import { RESET_ANSWER_MS } from './password-reset.js';
import { hashToken } from './sessions.js';

let mailbox: TestMailServer;
let ctx: TestContext;
const PUBLIC_URL = 'https://pollscope.example';

beforeAll(async () => {
  ({ ctx, mailbox } = await createTestAppWithMail({ publicUrl: PUBLIC_URL }));
});
afterAll(() => ctx?.close());

const anyone = () => client(ctx.app);
const requestLink = (email: string) => anyone().raw('POST', api.passwordReset, { email });
const useLink = (token: string, password: string) =>
  anyone().raw('POST', api.passwordResetConfirm, { token, password });
const mailsTo = (address: string, subject: string) =>
  mailbox.received.filter((mail) => recipientOf(mail) === address.toLowerCase() && mail.subject === subject);

/** The mail with `subject` to `address`, once it has come through the mail server. */
async function mailTo(address: string, subject: string): Promise<ParsedMail> {
  return vi.waitFor(
    () => {
      const [mail] = mailsTo(address, subject);
      expect(mail).toBeDefined();
      return mail;
    },
    { timeout: 10_000, interval: 50 },
  );
}

/**
 * The token of the link in a forgotten-password mail, after checking that the text and the HTML carry the same link.
 */
function tokenIn(mail: Pick<ParsedMail, 'text' | 'html'>): string {
  const match = /https:\/\/pollscope\.example\/reset-password\?token=([\w-]+)/.exec(mail.text ?? '');
  expect(match, mail.text).not.toBeNull();
  expect(mail.html).toContain(`href="${PUBLIC_URL}/reset-password?token=${match![1]}"`);
  return match![1];
}

/** The spec's text. */
const RESET_LINK_UNUSABLE = 'This link does not work any more: it was used, it lapsed, or it is not one we sent';
const RESET_SUBJECT = 'Choose a new Pollscope password';
const signInWith = (email: string, password: string) => anyone().raw('POST', api.login, { email, password });
const linkRows = (userId: number) =>
  ctx.database.db.selectFrom('password_reset_tokens').selectAll().where('user_id', '=', userId).execute();

/** Asks for a link for the person and returns the token of the mail it sends, once it has come. */
async function linkFor(person: TestUser): Promise<string> {
  const before = mailsTo(person.email, RESET_SUBJECT).length;
  expect((await requestLink(person.email)).status).toBe(200);
  const mail = await vi.waitFor(
    () => {
      const mails = mailsTo(person.email, RESET_SUBJECT);
      expect(mails.length).toBeGreaterThan(before);
      return mails[mails.length - 1];
    },
    { timeout: 10_000, interval: 50 },
  );
  return tokenIn(mail);
}

describe('a forgotten password', () => {
  it('is mailed a link that sets a new password, signs in and ends every other session', async () => {
    const person = await signUp(ctx);
    const other = await anyone().post(
      api.login,
      loginBodySchema,
      { email: person.email, password: 'correct horse' },
      tokenResponseSchema,
    );
    const asked = await requestLink(` ${person.email.toUpperCase()} `);
    expect(asked.status).toBe(200);
    expect(asked.parse(passwordResetAnswerSchema.strict())).toEqual({
      message: `If an account has this address, a link to choose a new password is on its way. It works for ${PASSWORD_RESET_MINUTES} minutes.`,
    });

    const mail = await mailTo(person.email, RESET_SUBJECT);
    expect(mail.text).toContain(`works once, for ${PASSWORD_RESET_MINUTES} minutes`);
    const token = tokenIn(mail);
    // Stored as its hash only, for 30 minutes.
    const [row] = await linkRows(person.id);
    expect(row.token_hash).toBe(hashToken(token));
    expect(JSON.stringify(row)).not.toContain(token);
    expect(Date.parse(row.expires_at) - Date.parse(row.created_at)).toBe(PASSWORD_RESET_MINUTES * 60_000);

    const reset = await useLink(token, 'a brand new horse');
    expect(reset.status).toBe(200);
    const { token: signedIn } = reset.parse(tokenResponseSchema.strict());
    expect((await client(ctx.app, signedIn).get(api.settings, settingsSchema)).email).toBe(person.email);
    for (const ended of [person.token, other.token])
      expect((await client(ctx.app, ended).raw('GET', api.myStats)).status).toBe(401);
    expect((await signInWith(person.email, 'correct horse')).status).toBe(400);
    expect((await signInWith(person.email, 'a brand new horse')).status).toBe(200);
    // The address is told, as of any new password.
    const notice = await mailTo(person.email, 'Your Pollscope password was changed');
    expect(notice.text).toMatch(
      /The password of your Pollscope account was changed on \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/,
    );

    // Once only.
    const again = await useLink(token, 'yet another horse');
    expect(again.status).toBe(400);
    expect(again.error()).toEqual({ message: RESET_LINK_UNUSABLE });
    expect((await signInWith(person.email, 'a brand new horse')).status).toBe(200);
    expect(await linkRows(person.id)).toEqual([]);
  });

  it('is answered alike for an address with no account, which gets no mail and no link', async () => {
    const person = await signUp(ctx);
    const known = await requestLink(person.email);
    const unknown = await requestLink('nobody-at-all@example.com');
    const quizAuthor = await requestLink(SYSTEM_EMAIL);
    for (const reply of [unknown, quizAuthor]) {
      expect(reply.status).toBe(known.status);
      expect(reply.text).toBe(known.text);
      expect(reply.headers['content-length']).toBe(known.headers['content-length']);
    }
    await mailTo(person.email, RESET_SUBJECT);
    // The worker has sent what was queued with the person's mail: nothing to the others is waiting or came.
    expect(
      await ctx.database.db
        .selectFrom('mail_outbox')
        .select('recipient')
        .where('recipient', 'in', ['nobody-at-all@example.com', SYSTEM_EMAIL])
        .execute(),
    ).toEqual([]);
    for (const address of ['nobody-at-all@example.com', SYSTEM_EMAIL])
      expect(mailsTo(address, RESET_SUBJECT)).toEqual([]);
    const links = await ctx.database.db
      .selectFrom('password_reset_tokens')
      .innerJoin('users', 'users.id', 'password_reset_tokens.user_id')
      .select('users.email')
      .execute();
    expect(links.map((link) => link.email)).not.toContain(SYSTEM_EMAIL);
  });

  it('is answered in the same time whether or not an account has the address', async () => {
    const person = await signUp(ctx);
    const timed = async (email: string) => {
      const start = performance.now();
      expect((await requestLink(email)).status).toBe(200);
      return performance.now() - start;
    };
    const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
    const withAccount: number[] = [];
    const without: number[] = [];
    // Taken in turns, so a busy moment of the machine weighs on both alike.
    for (let round = 0; round < 7; round += 1) {
      withAccount.push(await timed(person.email));
      without.push(await timed(`nobody-${round}@example.com`));
    }
    expect(Math.min(...withAccount, ...without)).toBeGreaterThanOrEqual(RESET_ANSWER_MS - 1);
    expect(
      Math.abs(median(withAccount) - median(without)),
      `with an account ${withAccount.map(Math.round)} ms, without ${without.map(Math.round)} ms`,
    ).toBeLessThan(25);
    // The work of the one with an account was done: a link for each request.
    expect(await linkRows(person.id)).toHaveLength(7);
  });

  it('refuses a link that lapsed, an unknown one and one of a deleted account, changing nothing', async () => {
    const person = await signUp(ctx);
    const lapsed = await linkFor(person);
    await ctx.database.db
      .updateTable('password_reset_tokens')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('token_hash', '=', hashToken(lapsed))
      .execute();
    for (const token of [lapsed, 'not-a-token-anyone-was-given', lapsed.slice(0, -1)]) {
      const reply = await useLink(token, 'a brand new horse');
      expect(reply.status, token).toBe(400);
      expect(reply.error()).toEqual({ message: RESET_LINK_UNUSABLE });
    }
    expect((await signInWith(person.email, 'correct horse')).status).toBe(200);
    expect((await person.api.raw('GET', api.myStats)).status).toBe(200);

    const leaver = await signUp(ctx);
    const leaversLink = await linkFor(leaver);
    expect((await leaver.api.raw('POST', api.deleteAccount, { password: 'correct horse' })).status).toBe(204);
    expect((await useLink(leaversLink, 'a brand new horse')).error()).toEqual({ message: RESET_LINK_UNUSABLE });
    expect(await ctx.database.db.selectFrom('users').select('id').where('email', '=', leaver.email).execute()).toEqual(
      [],
    );
  });

  it('refuses a new password out of bounds, and a body without a token or a valid email', async () => {
    const person = await signUp(ctx);
    const token = await linkFor(person);
    const short = await useLink(token, 'short');
    expect(short.status).toBe(400);
    expect(short.error().errors).toEqual({ password: 'At least 8 characters' });
    expect(
      (await anyone().raw('POST', api.passwordResetConfirm, { password: 'a brand new horse' })).error().errors,
    ).toHaveProperty('token');
    expect((await requestLink('not an address')).error().errors).toEqual({ email: 'Enter a valid email' });
    // The link still works after the refusals.
    expect((await useLink(token, 'a brand new horse')).status).toBe(200);
  });

  it('voids every earlier link once the password changes, by a link or in the settings', async () => {
    const person = await signUp(ctx);
    const first = await linkFor(person);
    const second = await linkFor(person);
    expect((await useLink(second, 'a brand new horse')).status).toBe(200);
    expect((await useLink(first, 'another new horse')).status).toBe(400);

    const other = await signUp(ctx);
    const pending = await linkFor(other);
    const settings = await other.api.get(api.settings, settingsSchema);
    await other.api.post(
      api.settings,
      settingsUpdateBodySchema,
      { ...settings, password: 'changed in settings', current_password: 'correct horse' },
      settingsSchema,
    );
    expect((await useLink(pending, 'a brand new horse')).status).toBe(400);
    expect((await signInWith(other.email, 'changed in settings')).status).toBe(200);
  });

  it('is written in the account’s language: German for a German account, word for word as ever in English', async () => {
    const german = await signUp(ctx, { firstName: 'Jürgen' });
    const settings = await german.api.get(api.settings, settingsSchema);
    expect((await german.api.raw('POST', api.settings, { ...settings, language: 'de' })).status).toBe(200);
    expect((await requestLink(german.email)).status).toBe(200);
    const mail = await mailTo(german.email, 'Neues Passwort für Pollscope festlegen');
    const token = tokenIn(mail);
    expect(mail.text).toBe(
      [
        'Neues Passwort festlegen',
        'Hallo Jürgen,',
        `Jemand, wahrscheinlich du, hat ein neues Passwort für das Pollscope-Konto mit dieser Adresse angefordert. Der Link unten funktioniert einmal, ${PASSWORD_RESET_MINUTES} Minuten lang, und meldet dich überall sonst ab.`,
        'Wenn du das nicht warst, ignoriere diese E-Mail: Dein Passwort bleibt, wie es ist, und ohne Zugang zu diesem Postfach kann niemand den Link nutzen.',
        `Neues Passwort festlegen: ${PUBLIC_URL}/reset-password?token=${token}`,
        '-- ',
        'Pollscope. Du erhältst diese E-Mail, weil für diese Adresse ein neues Passwort angefordert wurde.\n',
      ].join('\n\n'),
    );
    expect(mail.html).toContain('<html lang="de">');
    expect(mail.html).toContain('>Neues Passwort festlegen</a>');

    const english = await signUp(ctx, { firstName: 'Ada' });
    expect((await requestLink(english.email)).status).toBe(200);
    const englishMail = await mailTo(english.email, RESET_SUBJECT);
    expect(englishMail.text).toBe(
      [
        'Choose a new password',
        'Hi Ada,',
        `Someone, probably you, asked for a new password for the Pollscope account of this address. The link below works once, for ${PASSWORD_RESET_MINUTES} minutes, and signs you out everywhere else.`,
        'If it was not you, ignore this mail: your password stays as it is, and nobody can use the link without this mailbox.',
        `Choose a new password: ${PUBLIC_URL}/reset-password?token=${tokenIn(englishMail)}`,
        '-- ',
        'Pollscope. You get this mail because a new password was asked for this address.\n',
      ].join('\n\n'),
    );
    expect(englishMail.html).toContain('<html lang="en">');
  });
});
