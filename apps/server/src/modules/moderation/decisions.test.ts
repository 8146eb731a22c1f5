import {
  answerBodySchema,
  api,
  connectedSchema,
  moderationLogEntrySchema,
  moderationLogPageSchema,
  moderationReportPageSchema,
  myReportPageSchema,
  notificationPageSchema,
  questionSchema,
  quizListSchema,
  tokenResponseSchema,
} from '@pollscope/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask, client, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import {
  activeReporters,
  EVERY_PLACE,
  giveRole,
  moderate,
  placesShowing,
  report,
  sharedStatuses,
  signUpAdmin,
  type Findable,
} from '../../test/moderation.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const ADMIN_EMAIL = 'admin@pollscope.test';
const SECOND_ADMIN_EMAIL = 'second-admin@pollscope.test';

let ctx: TestContext;
let admin: TestUser;
let moderator: TestUser;
beforeAll(async () => {
  ctx = await createTestApp({ adminEmails: [ADMIN_EMAIL, SECOND_ADMIN_EMAIL], reportHideThreshold: 3 });
  admin = await signUpAdmin(ctx, ADMIN_EMAIL, 'Ada');
  moderator = await signUp(ctx, { firstName: 'Mo' });
  await giveRole(admin, moderator, 'moderator');
});
afterEach(() => vi.useRealTimers());
afterAll(() => ctx?.close());

/** Moves the clock of the app and the test `ms` on from where it is. */
const later = (ms: number) => {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(now + ms);
};

let asked = 0;
/** A question of `author` in every list `reader` sees: a category, a tag and a word of its own, and a vote of theirs. */
async function findableQuestion(author: TestUser, reader: TestUser): Promise<Findable> {
  asked += 1;
  const word = `quokka${asked}x`;
  const question = { category: 5, tag: `d${asked}${author.id}`, word };
  const id = await ask(author, { question: `Is a ${word} happy?`, category: question.category, tags: [question.tag] });
  await reader.api.post(api.follow(author.id), connectedSchema);
  await reader.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
  return { id, authorId: author.id, ...question };
}

/** Every report of `reporters` of the question, each answer's status. */
const reportAll = async (reporters: TestUser[], id: number) => {
  const statuses: number[] = [];
  for (const reporter of reporters) statuses.push((await report(reporter, 'question', id, 'hate')).status);
  return statuses;
};
const shownEverywhere = async (reader: TestUser, question: Findable) =>
  (await placesShowing(reader.api, question)).length === EVERY_PLACE.length &&
  (await reader.api.raw('GET', api.question(question.id))).status === 200;
const openEntry = async (target: 'question' | 'user', id: number) =>
  (await moderator.api.get(api.moderationReports, moderationReportPageSchema)).reports.find(
    (entry) => entry.target === target && entry.id === id,
  );
const myReports = async (user: TestUser) => (await user.api.get(api.reports, myReportPageSchema)).reports;

describe('a decision on a question', () => {
  it('refuses the same reporters again (409) and takes as many new ones to hide it again', async () => {
    const [author, reader] = [await signUp(ctx), await signUp(ctx)];
    const first = await activeReporters(ctx, 3);
    const next = await activeReporters(ctx, 3);
    later(25 * HOUR);
    const question = await findableQuestion(author, reader);
    expect(await reportAll(first, question.id)).toEqual([201, 201, 201]);
    expect(await shownEverywhere(reader, question)).toBe(false);
    expect(
      (await moderate(moderator, { target: 'question', id: question.id, action: 'dismiss', reason: 'A fair question' }))
        .status,
    ).toBe(200);
    expect(await shownEverywhere(reader, question)).toBe(true);
    // Each reporter sees that a moderator reviewed it and dismissed it.
    const [reviewed] = await myReports(first[0]);
    expect(reviewed).toMatchObject({ target_id: question.id, outcome: 'dismissed' });
    expect(Date.parse(reviewed.reviewed_at ?? '')).toBeGreaterThanOrEqual(Date.parse(reviewed.created_at));

    for (const reporter of first) {
      const again = await report(reporter, 'question', question.id, 'spam');
      expect(again.status).toBe(409);
      expect(again.error().message).toMatch(/moderator/i);
    }
    expect(await shownEverywhere(reader, question)).toBe(true);
    expect(await sharedStatuses(ctx.app, question.id)).toEqual({ page: 200, picture: 200 });
    expect(await openEntry('question', question.id)).toBeUndefined();

    // New people: in the queue at once, hidden only once as many as the threshold have reported it since.
    expect(await reportAll(next.slice(0, 2), question.id)).toEqual([201, 201]);
    expect(await shownEverywhere(reader, question)).toBe(true);
    expect((await openEntry('question', question.id))?.reporters).toBe(2);
    expect(await reportAll(next.slice(2), question.id)).toEqual([201]);
    expect(await shownEverywhere(reader, question)).toBe(false);
    expect(await sharedStatuses(ctx.app, question.id)).toEqual({ page: 410, picture: 404 });
  });

  it('counts a restore as a decision too: its reporters cannot report it again', async () => {
    const [author, reader] = [await signUp(ctx), await signUp(ctx)];
    const reporters = await activeReporters(ctx, 3);
    later(25 * HOUR);
    const question = await findableQuestion(author, reader);
    expect(await reportAll(reporters, question.id)).toEqual([201, 201, 201]);
    expect(
      (await moderate(moderator, { target: 'question', id: question.id, action: 'restore', reason: 'Fine' })).status,
    ).toBe(200);
    expect(await reportAll(reporters, question.id)).toEqual([409, 409, 409]);
    expect(await shownEverywhere(reader, question)).toBe(true);
    expect((await myReports(reporters[1]))[0].outcome).toBe('dismissed');
  });
});

describe('reports that count toward hiding', () => {
  it('come from accounts a day old that answered ten questions: neither younger nor less active ones hide', async () => {
    const [author, reader] = [await signUp(ctx), await signUp(ctx)];
    const inactive = [await signUp(ctx), await signUp(ctx), await signUp(ctx)];
    const asker = await signUp(ctx);
    const nine: number[] = [];
    for (let index = 0; index < 9; index += 1) nine.push(await ask(asker));
    for (const person of inactive)
      for (const id of nine) await person.api.post(api.answer(id), answerBodySchema, { choice: 2 }, questionSchema);
    later(25 * HOUR);
    const young = await activeReporters(ctx, 3);
    const question = await findableQuestion(author, reader);
    expect(await reportAll([...inactive, ...young], question.id)).toEqual([201, 201, 201, 201, 201, 201]);
    expect(await shownEverywhere(reader, question)).toBe(true);
    expect((await author.api.get(api.question(question.id), questionSchema)).moderation).toBeUndefined();
    expect((await openEntry('question', question.id))?.reporters).toBe(6);
  });
});

describe('a warning on a question hidden by reports', () => {
  it('ends the review: the question is shown again, its reports close as acted on, and its author is told', async () => {
    const [author, reader] = [await signUp(ctx), await signUp(ctx)];
    const reporters = await activeReporters(ctx, 3);
    later(25 * HOUR);
    const question = await findableQuestion(author, reader);
    expect(await reportAll(reporters, question.id)).toEqual([201, 201, 201]);
    expect((await author.api.get(api.question(question.id), questionSchema)).moderation?.status).toBe('under_review');

    expect(
      (
        await moderate(moderator, {
          target: 'question',
          id: question.id,
          action: 'warn',
          reason: 'Keep the wording neutral',
        })
      ).status,
    ).toBe(200);
    expect(await shownEverywhere(reader, question)).toBe(true);
    expect(await sharedStatuses(ctx.app, question.id)).toEqual({ page: 200, picture: 200 });
    expect((await author.api.get(api.question(question.id), questionSchema)).moderation).toBeUndefined();
    expect(await openEntry('question', question.id)).toBeUndefined();
    expect((await myReports(reporters[0]))[0]).toMatchObject({ target_id: question.id, outcome: 'action_taken' });
    const [told] = (await author.api.get(api.notifications, notificationPageSchema)).notifications;
    expect(told.moderation).toEqual({ action: 'warn', reason: 'Keep the wording neutral', until: null });
    // A decision like any other: its reporters cannot hide it again.
    expect(await reportAll(reporters, question.id)).toEqual([409, 409, 409]);
  });
});

describe('the site’s own account and its quiz', () => {
  it('cannot be moderated (400), and reports do not hide its questions', async () => {
    const reader = await signUp(ctx);
    const reporters = await activeReporters(ctx, 3);
    later(25 * HOUR);
    const quiz = await client(ctx.app).get(api.quizes, quizListSchema);
    const quizQuestion = quiz[0].question;
    const system = quizQuestion.user;

    expect(await reportAll(reporters, quizQuestion.id)).toEqual([201, 201, 201]);
    expect((await reader.api.raw('GET', api.question(quizQuestion.id))).status).toBe(200);
    expect(await sharedStatuses(ctx.app, quizQuestion.id)).toEqual({ page: 200, picture: 200 });
    expect((await openEntry('question', quizQuestion.id))?.reporters).toBe(3);

    for (const who of [moderator, admin]) {
      for (const body of [
        { target: 'user', id: system, action: 'suspend', reason: 'x' },
        { target: 'user', id: system, action: 'warn', reason: 'x' },
        { target: 'question', id: quizQuestion.id, action: 'remove', reason: 'x' },
        { target: 'question', id: quizQuestion.id, action: 'warn', reason: 'x' },
      ] as const) {
        const refused = await moderate(who, body);
        expect(refused.status, `${body.action} ${body.target}`).toBe(400);
        expect(refused.error().message).toMatch(/site's own account/);
      }
    }
    expect(await client(ctx.app).get(api.quizes, quizListSchema)).toHaveLength(quiz.length);
    expect((await reader.api.raw('GET', api.question(quizQuestion.id))).status).toBe(200);
    // What people wrote can still be read and closed.
    expect(
      (await moderate(moderator, { target: 'question', id: quizQuestion.id, action: 'dismiss', reason: 'Quiz' }))
        .status,
    ).toBe(200);
    expect(await openEntry('question', quizQuestion.id)).toBeUndefined();
  });
});

describe('the queue', () => {
  it('tells how many of a target’s reporters registered from one network, and within an hour of another', async () => {
    const author = await signUp(ctx);
    const question = await ask(author);
    let registered = 0;
    // Registered as a request from `address` would be.
    const register = async (address: string) => {
      registered += 1;
      const email = `sock${registered}-${question}@example.com`;
      const reply = await ctx.app.inject({
        method: 'POST',
        url: api.register,
        payload: {
          firstName: 'Sock',
          birthDate: '1990-06-15',
          gender: 'M',
          livingIn: 840,
          email,
          password: 'correct horse',
        },
        remoteAddress: address,
      });
      expect(reply.statusCode).toBe(201);
      return client(ctx.app, tokenResponseSchema.parse(reply.json()).token);
    };
    const reporters = [await register('127.0.0.1')];
    later(2 * HOUR);
    reporters.push(await register('203.0.113.9'));
    later(30 * MINUTE);
    // The same network (a /24) as the one before, within the hour.
    reporters.push(await register('203.0.113.77'));
    later(45 * MINUTE);
    // Another network, within an hour of the one before.
    reporters.push(await register('192.0.2.5'));
    later(3 * HOUR);
    reporters.push(await register('198.51.100.1'));
    for (const reporter of reporters) expect((await report(reporter, 'question', question)).status).toBe(201);
    expect(await openEntry('question', question)).toMatchObject({
      reporters: 5,
      reporters_same_network: 2,
      reporters_same_hour: 3,
    });
  });
});

describe('a question of an admin hidden by reports', () => {
  it('is decided by that admin when they are the only one, logged as their own, and by another admin once there is one', async () => {
    const reader = await signUp(ctx);
    const reporters = await activeReporters(ctx, 6);
    later(25 * HOUR);
    const own = await findableQuestion(admin, reader);
    expect(await reportAll(reporters.slice(0, 3), own.id)).toEqual([201, 201, 201]);
    expect(await shownEverywhere(reader, own)).toBe(false);
    expect((await moderate(moderator, { target: 'question', id: own.id, action: 'dismiss', reason: 'x' })).status).toBe(
      403,
    );
    expect((await moderate(admin, { target: 'question', id: own.id, action: 'warn', reason: 'x' })).status).toBe(400);
    const decided = await moderate(admin, {
      target: 'question',
      id: own.id,
      action: 'restore',
      reason: 'A fair question',
    });
    expect(decided.status).toBe(200);
    expect(decided.parse(moderationLogEntrySchema)).toMatchObject({
      moderator: { id: admin.id },
      action: 'restore',
      target_id: own.id,
      own_question: true,
    });
    expect((await moderator.api.get(api.moderationLog, moderationLogPageSchema)).entries[0]).toMatchObject({
      action: 'restore',
      target_id: own.id,
      own_question: true,
    });
    expect(await shownEverywhere(reader, own)).toBe(true);

    // With a second admin, the first no longer decides on their own question: the second does.
    const second = await signUpAdmin(ctx, SECOND_ADMIN_EMAIL, 'Grace');
    const another = await findableQuestion(admin, reader);
    expect(await reportAll(reporters.slice(3), another.id)).toEqual([201, 201, 201]);
    expect(await shownEverywhere(reader, another)).toBe(false);
    expect(
      (await moderate(admin, { target: 'question', id: another.id, action: 'dismiss', reason: 'Mine' })).status,
    ).toBe(400);
    const byOther = await moderate(second, { target: 'question', id: another.id, action: 'dismiss', reason: 'Fine' });
    expect(byOther.status).toBe(200);
    expect(byOther.parse(moderationLogEntrySchema).own_question).toBe(false);
    expect(await shownEverywhere(reader, another)).toBe(true);
  });
});
