import {
  answerBodySchema,
  api,
  connectedSchema,
  moderationOpenCountSchema,
  moderationReportPageSchema,
  myReportPageSchema,
  questionPageSchema,
  questionSchema,
  reportCreatedSchema,
} from '@pollscope/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import {
  activeReporters,
  EVERY_PLACE,
  giveRole,
  moderate,
  placesShowing,
  report,
  sharedStatuses,
  type Findable,
  signUpAdmin,
} from '../../test/moderation.js';

const HOUR = 3_600_000;
const ADMIN_EMAIL = 'admin@pollscope.test';

let ctx: TestContext;
let admin: TestUser;
let moderator: TestUser;
beforeAll(async () => {
  ctx = await createTestApp({ adminEmails: [ADMIN_EMAIL], reportHideThreshold: 3 });
  admin = await signUpAdmin(ctx, ADMIN_EMAIL, 'Ada');
  moderator = await signUp(ctx, { firstName: 'Mo' });
  await giveRole(admin, moderator, 'moderator');
});
afterEach(() => vi.useRealTimers());
afterAll(() => ctx.close());

/** The clock of the app and the test as it would be `ms` from now. */
const later = (ms: number) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + ms);
};

let asked = 0;
/**
 * A question of `author` findable in every list: a category, a tag and a word of its own, a vote of the last hour, and
 * `reader` following its author.
 */
async function findableQuestion(author: TestUser, reader: TestUser): Promise<Findable> {
  asked += 1;
  const word = `zebra${asked}x`;
  const question = { category: 4, tag: `t${asked}${author.id}`, word };
  const id = await ask(author, {
    question: `Do ${word} stripes help?`,
    category: question.category,
    tags: [question.tag],
  });
  await reader.api.post(api.follow(author.id), connectedSchema);
  await reader.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
  return { id, authorId: author.id, ...question };
}

const queue = async (status: 'open' | 'closed' = 'open') =>
  (await moderator.api.get(`${api.moderationReports}?status=${status}`, moderationReportPageSchema)).reports;
const openCount = async () => (await moderator.api.get(api.moderationOpenCount, moderationOpenCountSchema)).open;
const myReports = async (user: TestUser) => (await user.api.get(api.reports, myReportPageSchema)).reports;

describe('a report', () => {
  it('is filed once per person and target while it is open: 201, then 200 with the same id', async () => {
    const [author, reporter] = [await signUp(ctx), await signUp(ctx)];
    const question = await ask(author);
    const first = await report(reporter, 'question', question, 'spam', 'Selling watches');
    expect(first.status).toBe(201);
    const again = await report(reporter, 'question', question, 'hate');
    expect(again.status).toBe(200);
    expect(again.parse(reportCreatedSchema).id).toBe(first.parse(reportCreatedSchema).id);
    const person = await report(reporter, 'user', author.id, 'harassment');
    expect(person.status).toBe(201);
    const [entry] = (await queue()).filter((shown) => shown.target === 'question' && shown.id === question);
    expect(entry.reporters).toBe(1);
    expect(entry.reasons).toEqual({ spam: 1 });
    expect(entry.notes).toEqual(['Selling watches']);
  });

  it('refuses one’s own question and oneself (400), and what does not exist (404)', async () => {
    const author = await signUp(ctx);
    const question = await ask(author);
    expect((await report(author, 'question', question)).status).toBe(400);
    expect((await report(author, 'user', author.id)).status).toBe(400);
    expect((await report(author, 'question', question + 100_000)).status).toBe(404);
    expect((await report(author, 'user', author.id + 100_000)).status).toBe(404);
    expect(
      (await author.api.raw('POST', api.reports, { target: 'question', id: question, reason: 'rude' })).status,
    ).toBe(400);
    expect(await myReports(author)).toEqual([]);
  });

  it('is shown to its reporter with what came of it, and never who else reported', async () => {
    const [author, reporter, other] = [await signUp(ctx), await signUp(ctx), await signUp(ctx)];
    const [kept, removed] = [await ask(author), await ask(author)];
    await report(reporter, 'question', kept, 'misinformation');
    await report(reporter, 'question', removed, 'violence');
    await report(other, 'question', removed, 'violence');
    expect((await myReports(reporter)).map((shown) => [shown.target_id, shown.reason, shown.outcome])).toEqual([
      [removed, 'violence', 'open'],
      [kept, 'misinformation', 'open'],
    ]);
    expect(
      (await moderate(moderator, { target: 'question', id: kept, action: 'dismiss', reason: 'Not against the rules' }))
        .status,
    ).toBe(200);
    expect(
      (await moderate(moderator, { target: 'question', id: removed, action: 'remove', reason: 'Calls for violence' }))
        .status,
    ).toBe(200);
    expect((await myReports(reporter)).map((shown) => [shown.target_id, shown.outcome])).toEqual([
      [removed, 'action_taken'],
      [kept, 'dismissed'],
    ]);
    expect(await myReports(other)).toHaveLength(1);
    // The queue tells the moderator how many and why, never who.
    const closed = (await queue('closed')).find((shown) => shown.id === removed)!;
    expect(closed.reporters).toBe(2);
    expect(JSON.stringify(closed)).not.toContain(`"${reporter.email}"`);
    expect(Object.keys(closed).sort()).toEqual([
      'first_at',
      'id',
      'last_at',
      'notes',
      'question',
      'reasons',
      'reporters',
      'reporters_same_hour',
      'reporters_same_network',
      'status',
      'target',
    ]);
    // A question a moderator decided on is not reported again by the same person (modules/moderation/decisions.test.ts).
    expect((await report(reporter, 'question', kept, 'spam')).status).toBe(409);
  });
});

describe('an account’s deletion', () => {
  it('takes the reports the person made, and those of them and of their questions', async () => {
    const [leaver, reporter, reported] = [await signUp(ctx), await signUp(ctx), await signUp(ctx)];
    const question = await ask(leaver);
    const before = await openCount();
    await report(leaver, 'user', reported.id, 'spam');
    await report(reporter, 'user', leaver.id, 'harassment');
    await report(reporter, 'question', question, 'hate');
    expect(await openCount()).toBe(before + 3);
    expect((await leaver.api.raw('POST', api.deleteAccount, { password: 'correct horse' })).status).toBe(204);
    expect(await openCount()).toBe(before);
    const gone = [`user:${reported.id}`, `user:${leaver.id}`, `question:${question}`];
    expect((await queue()).filter((entry) => gone.includes(`${entry.target}:${entry.id}`))).toEqual([]);
    expect(await myReports(reporter)).toEqual([]);
  });
});

describe('reports that hide a question', () => {
  it('hide it everywhere but for its author once three people with accounts a day old and ten answers report it, until a moderator dismisses them', async () => {
    const [author, reader] = [await signUp(ctx), await signUp(ctx)];
    const reporters = await activeReporters(ctx, 3);
    later(25 * HOUR);
    const question = await findableQuestion(author, reader);
    expect(await placesShowing(reader.api, question)).toEqual(EVERY_PLACE);

    for (const [index, reporter] of reporters.entries()) {
      expect(await placesShowing(reader.api, question), `after ${index} reports`).toEqual(EVERY_PLACE);
      expect((await report(reporter, 'question', question.id, 'hate')).status).toBe(201);
    }
    expect(await placesShowing(reader.api, question)).toEqual([]);
    expect((await reader.api.raw('GET', api.question(question.id))).status).toBe(404);
    expect(await sharedStatuses(ctx.app, question.id)).toEqual({ page: 410, picture: 404 });
    const own = await author.api.get(api.question(question.id), questionSchema);
    expect(own.moderation).toEqual({ status: 'under_review', reason: null });
    const ownList = await author.api.get(api.myQuestions, questionPageSchema);
    expect(ownList.questions.find((shown) => shown.id === question.id)?.moderation).toEqual({
      status: 'under_review',
      reason: null,
    });
    const [entry] = (await queue()).filter((shown) => shown.target === 'question' && shown.id === question.id);
    expect(entry).toMatchObject({
      reporters: 3,
      reasons: { hate: 3 },
      question: { id: question.id, moderation: { status: 'under_review', reason: null } },
    });

    expect(
      (await moderate(moderator, { target: 'question', id: question.id, action: 'dismiss', reason: 'A fair question' }))
        .status,
    ).toBe(200);
    expect(await placesShowing(reader.api, question)).toEqual(EVERY_PLACE);
    expect(await sharedStatuses(ctx.app, question.id)).toEqual({ page: 200, picture: 200 });
    expect((await author.api.get(api.question(question.id), questionSchema)).moderation).toBeUndefined();
    expect((await queue()).some((shown) => shown.id === question.id && shown.target === 'question')).toBe(false);
  });

  it('do not count the reports of accounts younger than a day, nor one person twice', async () => {
    const [author, reader] = [await signUp(ctx), await signUp(ctx)];
    const seasoned = await activeReporters(ctx, 2);
    later(25 * HOUR);
    const question = await findableQuestion(author, reader);
    const young = [await signUp(ctx), await signUp(ctx), await signUp(ctx)];
    for (const reporter of [...young, ...seasoned])
      expect((await report(reporter, 'question', question.id, 'spam')).status).toBe(201);
    expect((await report(seasoned[0], 'question', question.id, 'spam')).status).toBe(200);
    expect(await placesShowing(reader.api, question)).toEqual(EVERY_PLACE);
    // All five are in the queue for a moderator to read; only two counted toward hiding.
    expect((await queue()).find((shown) => shown.target === 'question' && shown.id === question.id)?.reporters).toBe(5);
    expect((await author.api.get(api.question(question.id), questionSchema)).moderation).toBeUndefined();
  });
});

describe('the queue', () => {
  it('lists each reported target once, most reported first, a page at a time, with the open count for the shield', async () => {
    const fresh = await createTestApp({ adminEmails: [ADMIN_EMAIL] });
    try {
      const boss = await signUpAdmin(fresh, ADMIN_EMAIL);
      const author = await signUp(fresh, { firstName: 'Reported' });
      const reporters = [await signUp(fresh), await signUp(fresh), await signUp(fresh)];
      const questions = [await ask(author), await ask(author)];
      await report(reporters[0], 'question', questions[0]);
      for (const reporter of reporters)
        await report(reporter, 'user', author.id, 'harassment', `Note by ${reporter.id}`);
      await report(reporters[0], 'question', questions[1], 'sexual');
      await report(reporters[1], 'question', questions[1], 'spam');
      expect((await boss.api.get(api.moderationOpenCount, moderationOpenCountSchema)).open).toBe(3);

      const first = await boss.api.get(api.moderationReports, moderationReportPageSchema);
      expect(first.reports.map((entry) => [entry.target, entry.id, entry.reporters])).toEqual([
        ['user', author.id, 3],
        ['question', questions[1], 2],
        ['question', questions[0], 1],
      ]);
      expect(first.next).toBeNull();
      const [person, second] = first.reports;
      expect(person.user).toEqual({ id: author.id, name: 'Reported' });
      expect(person.notes).toEqual(reporters.map((reporter) => `Note by ${reporter.id}`));
      expect(second.reasons).toEqual({ sexual: 1, spam: 1 });
      expect(second.question).toMatchObject({ id: questions[1], user: author.id, user_name: 'Reported' });

      // Twenty more targets of one report each: the page ends after twenty, and the next goes on where it ended.
      for (let index = 0; index < 20; index += 1) await report(reporters[2], 'question', await ask(author));
      const pageOne = await boss.api.get(api.moderationReports, moderationReportPageSchema);
      expect(pageOne.reports).toHaveLength(20);
      const pageTwo = await boss.api.get(`${api.moderationReports}?cursor=${pageOne.next}`, moderationReportPageSchema);
      const seen = [...pageOne.reports, ...pageTwo.reports].map((entry) => `${entry.target}:${entry.id}`);
      expect(new Set(seen).size).toBe(23);
      expect(pageTwo.next).toBeNull();
      expect((await boss.api.get(api.moderationOpenCount, moderationOpenCountSchema)).open).toBe(23);
    } finally {
      await fresh.close();
    }
  });

  it('counts what is open for the shield, and drops a target once decided', async () => {
    const [author, reporter] = [await signUp(ctx), await signUp(ctx)];
    const before = await openCount();
    await report(reporter, 'user', author.id, 'spam');
    expect(await openCount()).toBe(before + 1);
    expect(
      (await moderate(moderator, { target: 'user', id: author.id, action: 'warn', reason: 'Stop posting links' }))
        .status,
    ).toBe(200);
    expect(await openCount()).toBe(before);
  });
});
