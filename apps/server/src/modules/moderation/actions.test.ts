import {
  accountSchema,
  answerBodySchema,
  api,
  connectedSchema,
  loginBodySchema,
  moderationLogEntrySchema,
  moderationLogPageSchema,
  notificationPageSchema,
  questionPageSchema,
  questionSchema,
  settingsSchema,
  tokenResponseSchema,
  userStatsSchema,
} from '@pollscope/contract';
import type { ParsedMail } from 'mailparser';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask, client, createTestAppWithMail, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { recipientOf, type TestMailServer } from '../../test/mail-server.js';
import {
  EVERY_PLACE,
  giveRole,
  moderate,
  placesShowing,
  report,
  sharedStatuses,
  type Findable,
  signUpAdmin,
} from '../../test/moderation.js';
import { runCommand } from '../../test/server-process.js';

const HOUR = 3_600_000;
const ADMIN_EMAIL = 'admin@pollscope.test';
const PUBLIC_URL = 'https://pollscope.example';

let ctx: TestContext;
let mailbox: TestMailServer;
let admin: TestUser;
let moderator: TestUser;
beforeAll(async () => {
  ({ ctx, mailbox } = await createTestAppWithMail({ adminEmails: [ADMIN_EMAIL], publicUrl: PUBLIC_URL }));
  admin = await signUpAdmin(ctx, ADMIN_EMAIL, 'Ada');
  moderator = await signUp(ctx, { firstName: 'Mo' });
  await giveRole(admin, moderator, 'moderator');
});
afterEach(() => vi.useRealTimers());
afterAll(() => ctx?.close());

let asked = 0;
/** A question of `author` findable in every list by `reader`, who follows its author and answered it. */
async function findableQuestion(author: TestUser, reader: TestUser): Promise<Findable> {
  asked += 1;
  const word = `okapi${asked}x`;
  const question = { category: 6, tag: `m${asked}${author.id}`, word };
  const id = await ask(author, {
    question: `Have you seen an ${word}?`,
    category: question.category,
    tags: [question.tag],
  });
  await reader.api.post(api.follow(author.id), connectedSchema);
  await reader.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
  return { id, authorId: author.id, ...question };
}

/** The mails to `address` once `count` have come through the mail server. */
async function mailsTo(address: string, count: number): Promise<ParsedMail[]> {
  return vi.waitFor(
    () => {
      const mails = mailbox.received.filter((mail) => recipientOf(mail) === address.toLowerCase());
      expect(mails).toHaveLength(count);
      return mails;
    },
    { timeout: 10_000, interval: 50 },
  );
}

const notifications = async (user: TestUser) =>
  (await user.api.get(api.notifications, notificationPageSchema)).notifications;
const signIn = (user: TestUser) =>
  client(ctx.app).raw('POST', api.login, { email: user.email, password: 'correct horse' });

describe('removing and restoring a question', () => {
  it('takes it from everyone but its author, everywhere, tells the author, and brings it back', async () => {
    const [author, reader] = [await signUp(ctx, { firstName: 'Rita' }), await signUp(ctx)];
    const question = await findableQuestion(author, reader);
    const other = await ask(author, { question: 'Another one?' });
    await reader.api.post(api.answer(other), answerBodySchema, { choice: 2 }, questionSchema);
    // Each place keeps it in memory before the action.
    expect(await placesShowing(reader.api, question)).toEqual(EVERY_PLACE);
    expect(await sharedStatuses(ctx.app, question.id)).toEqual({ page: 200, picture: 200 });

    const removed = await moderate(moderator, {
      target: 'question',
      id: question.id,
      action: 'remove',
      reason: 'Spam links in the choices',
    });
    expect(removed.status).toBe(200);
    expect(removed.parse(moderationLogEntrySchema)).toMatchObject({
      action: 'remove',
      target: 'question',
      target_id: question.id,
      moderator: { id: moderator.id, name: 'Mo' },
    });
    expect(await placesShowing(reader.api, question)).toEqual([]);
    for (const path of [
      api.question(question.id),
      api.breakdown(question.id),
      api.related(question.id),
      api.relate(question.id, other),
      api.relate(other, question.id),
    ]) {
      expect((await reader.api.raw('GET', path)).status, path).toBe(404);
    }
    expect((await reader.api.raw('POST', api.like(question.id))).status).toBe(404);
    expect(await sharedStatuses(ctx.app, question.id)).toEqual({ page: 410, picture: 404 });
    // Its author still sees it, marked removed with the reason, and its votes still count.
    const own = await author.api.get(api.question(question.id), questionSchema);
    expect(own.moderation).toEqual({ status: 'removed', reason: 'Spam links in the choices' });
    expect(own.vote_count).toBe(1);
    expect((await author.api.get(api.myQuestions, questionPageSchema)).questions.map((shown) => shown.id)).toContain(
      question.id,
    );
    const [told] = await notifications(author);
    expect(told).toMatchObject({
      kind: 'moderation',
      moderation: { action: 'remove', reason: 'Spam links in the choices', until: null },
      question: { id: question.id },
    });
    const [mail] = await mailsTo(author.email, 1);
    expect(mail.subject).toContain('Your question was removed');
    expect(mail.text).toContain('Spam links in the choices');

    expect(
      (await moderate(moderator, { target: 'question', id: question.id, action: 'remove', reason: 'Again' })).status,
    ).toBe(409);
    expect(
      (
        await moderate(moderator, {
          target: 'question',
          id: question.id,
          action: 'restore',
          reason: 'Links were fine after all',
        })
      ).status,
    ).toBe(200);
    expect(await placesShowing(reader.api, question)).toEqual(EVERY_PLACE);
    expect(await sharedStatuses(ctx.app, question.id)).toEqual({ page: 200, picture: 200 });
    expect((await author.api.get(api.question(question.id), questionSchema)).moderation).toBeUndefined();
    expect((await notifications(author))[0].moderation?.action).toBe('restore');
    await mailsTo(author.email, 2);
  });

  it('refuses what the action does not take (400) and what does not exist (404)', async () => {
    const author = await signUp(ctx);
    const question = await ask(author);
    expect((await moderate(moderator, { target: 'user', id: author.id, action: 'remove', reason: 'x' })).status).toBe(
      400,
    );
    expect(
      (await moderate(moderator, { target: 'question', id: question, action: 'suspend', reason: 'x' })).status,
    ).toBe(400);
    expect(
      (
        await moderate(moderator, {
          target: 'question',
          id: question,
          action: 'warn',
          reason: 'x',
          until: new Date(Date.now() + HOUR).toISOString(),
        })
      ).status,
    ).toBe(400);
    expect(
      (
        await moderate(moderator, {
          target: 'user',
          id: author.id,
          action: 'suspend',
          reason: 'x',
          until: new Date(Date.now() - HOUR).toISOString(),
        })
      ).status,
    ).toBe(400);
    expect((await moderate(moderator, { target: 'question', id: question, action: 'remove', reason: '' })).status).toBe(
      400,
    );
    expect(
      (await moderate(moderator, { target: 'question', id: question + 100_000, action: 'remove', reason: 'x' })).status,
    ).toBe(404);
    expect(
      (await moderate(moderator, { target: 'user', id: author.id + 100_000, action: 'warn', reason: 'x' })).status,
    ).toBe(404);
    expect((await moderate(moderator, { target: 'user', id: moderator.id, action: 'warn', reason: 'x' })).status).toBe(
      400,
    );
    expect(await notifications(author)).toEqual([]);
  });
});

describe('suspending a person', () => {
  it('ends their sessions, refuses sign-in with the reason and end, withholds their questions and profile, and lets them back once the end passes', async () => {
    const [suspect, reader] = [await signUp(ctx, { firstName: 'Sam' }), await signUp(ctx)];
    const question = await findableQuestion(suspect, reader);
    const readers = await ask(reader);
    await suspect.api.post(api.answer(readers), answerBodySchema, { choice: 1 }, questionSchema);
    await report(reader, 'user', suspect.id, 'harassment');
    const until = new Date(Date.now() + 2 * HOUR).toISOString();

    const suspended = await moderate(moderator, {
      target: 'user',
      id: suspect.id,
      action: 'suspend',
      reason: 'Insults in every question',
      until,
    });
    expect(suspended.status).toBe(200);
    expect((await suspect.api.raw('GET', api.myStats)).status).toBe(401);
    const refused = await signIn(suspect);
    expect(refused.status).toBe(403);
    expect(refused.error().message).toContain('Insults in every question');
    expect(refused.error().message).toMatch(/until \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);
    expect(await placesShowing(reader.api, question)).toEqual([]);
    expect((await reader.api.raw('GET', api.userStats(suspect.id))).status).toBe(404);
    expect((await reader.api.raw('GET', api.userQuestions(suspect.id))).status).toBe(404);
    expect((await reader.api.raw('GET', api.question(question.id))).status).toBe(404);
    expect(await sharedStatuses(ctx.app, question.id)).toEqual({ page: 410, picture: 404 });
    expect((await report(reader, 'user', suspect.id)).status).toBe(404);
    // Their votes still count.
    expect((await reader.api.get(api.question(readers), questionSchema)).vote_count).toBe(1);
    const [mail] = await mailsTo(suspect.email, 1);
    expect(mail.subject).toContain('Your account is suspended');
    expect(mail.text).toContain('Insults in every question');
    expect(mail.text).toMatch(/until \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse(until) + 60_000);
    const back = await signIn(suspect);
    expect(back.status).toBe(200);
    const returned = client(ctx.app, back.parse(tokenResponseSchema).token);
    expect(await placesShowing(reader.api, question)).toEqual(EVERY_PLACE);
    expect((await reader.api.get(api.userStats(suspect.id), userStatsSchema)).name).toBe('Sam');
    const told = (await returned.get(api.notifications, notificationPageSchema)).notifications[0];
    expect(told).toMatchObject({
      kind: 'moderation',
      question: null,
      moderation: { action: 'suspend', reason: 'Insults in every question', until },
    });
  });

  it('for ever, until a moderator ends it', async () => {
    const suspect = await signUp(ctx);
    expect(
      (await moderate(moderator, { target: 'user', id: suspect.id, action: 'suspend', reason: 'Spam account' })).status,
    ).toBe(200);
    const refused = await signIn(suspect);
    expect(refused.status).toBe(403);
    expect(refused.error().message).toContain('with no end date');
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.now() + 1000 * 24 * HOUR);
    expect((await signIn(suspect)).status).toBe(403);
    vi.useRealTimers();
    // A link to choose a new password signs nobody in either, and stays unused.
    await client(ctx.app).raw('POST', api.passwordReset, { email: suspect.email });
    const [, resetMail] = await mailsTo(suspect.email, 2);
    const token = /reset-password\?token=([\w-]+)/.exec(resetMail.text ?? '')![1];
    const reset = { token, password: 'a new password' };
    expect((await client(ctx.app).raw('POST', api.passwordResetConfirm, reset)).status).toBe(403);

    expect(
      (await moderate(moderator, { target: 'user', id: suspect.id, action: 'unsuspend', reason: 'Appeal accepted' }))
        .status,
    ).toBe(200);
    expect((await signIn(suspect)).status).toBe(200);
    expect(
      (await moderate(moderator, { target: 'user', id: suspect.id, action: 'unsuspend', reason: 'Again' })).status,
    ).toBe(409);
    await mailsTo(suspect.email, 3);
    expect((await client(ctx.app).raw('POST', api.passwordResetConfirm, reset)).status).toBe(200);
  });
});

describe('who may moderate', () => {
  it('refuses members every moderation call (403), and lets only admins name moderators', async () => {
    const [member, other] = [await signUp(ctx), await signUp(ctx)];
    const question = await ask(other);
    for (const path of [api.moderationReports, api.moderationOpenCount, api.moderationLog])
      expect((await member.api.raw('GET', path)).status, path).toBe(403);
    expect((await moderate(member, { target: 'question', id: question, action: 'remove', reason: 'x' })).status).toBe(
      403,
    );
    expect((await member.api.raw('POST', api.moderationRoles, { user: other.id, role: 'moderator' })).status).toBe(403);
    expect((await moderator.api.raw('POST', api.moderationRoles, { user: other.id, role: 'moderator' })).status).toBe(
      403,
    );
    expect((await admin.api.raw('POST', api.moderationRoles, { user: admin.id, role: 'member' })).status).toBe(400);
    expect(
      (await admin.api.raw('POST', api.moderationRoles, { user: other.id + 100_000, role: 'moderator' })).status,
    ).toBe(404);
    expect((await other.api.get(api.account, accountSchema)).role).toBe('member');
    await giveRole(admin, other, 'moderator');
    expect(await other.api.get(api.account, accountSchema)).toMatchObject({ id: other.id, role: 'moderator' });
    expect((await other.api.raw('GET', api.moderationOpenCount)).status).toBe(200);
    await giveRole(admin, other, 'member');
    expect((await other.api.raw('GET', api.moderationOpenCount)).status).toBe(403);
  });

  it('keeps a moderator from acting on an admin or another moderator; an admin can', async () => {
    const colleague = await signUp(ctx);
    await giveRole(admin, colleague, 'moderator');
    const colleagues = await ask(colleague);
    const admins = await ask(admin);
    expect((await moderate(moderator, { target: 'user', id: admin.id, action: 'suspend', reason: 'x' })).status).toBe(
      403,
    );
    expect((await moderate(moderator, { target: 'question', id: admins, action: 'remove', reason: 'x' })).status).toBe(
      403,
    );
    expect((await moderate(moderator, { target: 'user', id: colleague.id, action: 'warn', reason: 'x' })).status).toBe(
      403,
    );
    expect(
      (await moderate(moderator, { target: 'question', id: colleagues, action: 'remove', reason: 'x' })).status,
    ).toBe(403);
    expect(
      (await moderate(admin, { target: 'user', id: colleague.id, action: 'warn', reason: 'Be kinder in the queue' }))
        .status,
    ).toBe(200);
    expect((await notifications(colleague))[0].moderation).toEqual({
      action: 'warn',
      reason: 'Be kinder in the queue',
      until: null,
    });
  });

  // Issue 43, finding 2: an address of ADMIN_EMAILS made whoever registered it an admin at once.
  it('makes an ADMIN_EMAILS account an admin only once the mailed link proves its address, and npm run user:role sets any role', async () => {
    expect((await admin.api.get(api.account, accountSchema)).role).toBe('admin');
    const roleOf = async (user: TestUser) => (await user.api.get(api.account, accountSchema)).role;
    const proofLink = (mail: ParsedMail) => {
      expect(mail.subject).toBe('Confirm your Pollscope email to become an admin');
      const token = /https:\/\/pollscope\.example\/confirm-email\?token=([\w-]+)/.exec(mail.text ?? '')?.[1];
      expect(token).toBeDefined();
      return token!;
    };

    // A stranger registers an admin's address that no account has (the admin moved, or is yet to come).
    ctx.config.adminEmails.push('claimed-admin@pollscope.test');
    const stranger = await signUp(ctx, { email: 'claimed-admin@pollscope.test' });
    expect(await roleOf(stranger)).toBe('member');
    expect((await stranger.api.raw('GET', api.moderationOpenCount)).status).toBe(403);
    expect(
      (await moderate(stranger, { action: 'suspend', target: 'user', id: admin.id, reason: 'Mine now' })).status,
    ).toBe(403);
    // Signing in again proves nothing either, and mails no second link while the first works.
    expect((await signIn(stranger)).status).toBe(200);
    expect(await roleOf(stranger)).toBe('member');
    const [proof] = await mailsTo(stranger.email, 1);
    // Only who reads the address's mail can open the link.
    expect((await client(ctx.app).raw('POST', api.confirmEmail, { token: proofLink(proof) })).status).toBe(200);
    expect(await roleOf(stranger)).toBe('admin');

    // An address added later: its account, signing in, is mailed the link, and is a member until it is opened.
    const person = await signUp(ctx, { email: 'later-admin@pollscope.test' });
    ctx.config.adminEmails.push('later-admin@pollscope.test');
    const { token } = await client(ctx.app).post(
      api.login,
      loginBodySchema,
      { email: person.email, password: 'correct horse' },
      tokenResponseSchema,
    );
    expect((await client(ctx.app, token).get(api.account, accountSchema)).role).toBe('member');
    const [later] = await mailsTo(person.email, 1);
    // Settings show no pending change of address: the link proves the one the account has.
    expect((await person.api.get(api.settings, settingsSchema)).pending_email).toBeNull();
    expect((await client(ctx.app).raw('POST', api.confirmEmail, { token: proofLink(later) })).status).toBe(200);
    expect((await client(ctx.app, token).get(api.account, accountSchema)).role).toBe('admin');

    const run = (...args: string[]) =>
      runCommand('src/modules/moderation/role-cli.ts', args, { DATABASE_URL: ctx.config.databaseUrl });
    const member = await signUp(ctx);
    const made = await run(member.email, 'moderator');
    expect(made.stdout).toContain('is now a moderator');
    expect(made.code).toBe(0);
    // Counted from the person's next call, with the session they had.
    expect((await member.api.get(api.account, accountSchema)).role).toBe('moderator');
    expect((await member.api.raw('GET', api.moderationOpenCount)).status).toBe(200);
    expect((await run('nobody@pollscope.test', 'admin')).code).toBe(1);
    expect((await run(member.email, 'king')).code).toBe(2);
  });
});

describe('the moderation log', () => {
  it('lists every action newest first, and keeps them when the moderator’s account is deleted, without the name', async () => {
    const deputy = await signUp(ctx, { firstName: 'Dee' });
    await giveRole(admin, deputy, 'moderator');
    const [first, second] = [await signUp(ctx), await signUp(ctx)];
    const until = new Date(Date.now() + 5 * HOUR).toISOString();
    await moderate(deputy, { target: 'user', id: first.id, action: 'warn', reason: 'First warning' });
    await moderate(deputy, { target: 'user', id: second.id, action: 'suspend', reason: 'Second strike', until });
    const log = async () => (await moderator.api.get(api.moderationLog, moderationLogPageSchema)).entries;
    const [latest, earlier] = await log();
    expect(latest).toMatchObject({
      moderator: { id: deputy.id, name: 'Dee' },
      action: 'suspend',
      target: 'user',
      target_id: second.id,
      reason: 'Second strike',
      until,
    });
    expect(earlier).toMatchObject({
      moderator: { id: deputy.id, name: 'Dee' },
      action: 'warn',
      target_id: first.id,
      until: null,
    });

    expect((await deputy.api.raw('POST', api.deleteAccount, { password: 'correct horse' })).status).toBe(204);
    const [keptLatest, keptEarlier] = await log();
    expect(keptLatest).toEqual({ ...latest, moderator: { id: null, name: '' } });
    expect(keptEarlier).toEqual({ ...earlier, moderator: { id: null, name: '' } });
  });
});
