import {
  answerBodySchema,
  api,
  blockedSchema,
  passedSchema,
  questionSchema,
  trendingSchema,
} from '@pollscope/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask, client, createTestApp, restartApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';

const HOUR = 3_600_000;

let ctx: TestContext;
let author: TestUser;
let viewer: TestUser;
beforeAll(async () => {
  // Read from the votes only when asked to (a restart): what the counts heard must be right by itself.
  ctx = await createTestApp({ trendingReloadSeconds: 1_000_000 });
  author = await signUp(ctx);
  viewer = await signUp(ctx);
});
afterEach(() => vi.useRealTimers());
afterAll(() => ctx.close());

/** The person's calls to the app of now: a restart replaces it. */
const as = (user: TestUser) => client(ctx.app, user.token);
const trending = async (user: TestUser) =>
  (await as(user).get(api.trending, trendingSchema.strict())).questions.map((question) => question.id);
const askAs = (user: TestUser) => ask({ ...user, api: as(user) });

/** `count` new people answer the question. */
async function votes(question: number, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1)
    await (await signUp(ctx)).api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
}

/** The clock of the app and the test as it would be at `time`. */
const at = (time: number) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(time);
};

describe('trending questions', () => {
  it('are those answered in the last 24 hours, as the stored votes say', async () => {
    const now = Date.now();
    const [yesterday, today, unanswered] = [await askAs(author), await askAs(author), await askAs(author)];
    at(now - 25 * HOUR);
    await votes(yesterday, 3);
    at(now - 23 * HOUR);
    await votes(today, 2);
    vi.useRealTimers();
    // A new instance reads the counts from the votes themselves.
    await restartApp(ctx);
    const ids = await trending(viewer);
    expect(ids).toContain(today);
    expect(ids).not.toContain(yesterday);
    expect(ids).not.toContain(unanswered);
  });

  it('count a vote at once, list the most answered first, and let votes go once 24 hours old', async () => {
    const now = Date.now();
    const [once, twice, thrice] = [await askAs(author), await askAs(author), await askAs(author)];
    await trending(viewer);
    await votes(twice, 2);
    await votes(once, 1);
    await votes(thrice, 3);
    const ids = await trending(viewer);
    expect(ids.filter((id) => [once, twice, thrice].includes(id))).toEqual([thrice, twice, once]);

    at(now + 24 * HOUR + 60_000);
    expect(await trending(viewer)).toEqual([]);
  });

  it('leave out what the viewer hid and what people blocked either way asked', async () => {
    const blocker = await signUp(ctx);
    const blocked = await signUp(ctx);
    const [hidden, shown, byBlocker, byBlocked] = [
      await askAs(author),
      await askAs(author),
      await askAs(blocker),
      await askAs(blocked),
    ];
    for (const question of [hidden, shown, byBlocker, byBlocked]) await votes(question, 1);
    await as(viewer).post(api.pass(hidden), passedSchema);
    await as(blocker).post(api.ban(viewer.id), blockedSchema);
    await as(viewer).post(api.ban(blocked.id), blockedSchema);
    const ids = await trending(viewer);
    expect(ids).toContain(shown);
    for (const question of [hidden, byBlocker, byBlocked]) expect(ids).not.toContain(question);
    expect(await trending(author)).toEqual(expect.arrayContaining([hidden, shown, byBlocker, byBlocked]));
  });

  it('count once a vote heard while the counts are read, whether or not the read found it', async () => {
    const [mostAnswered, heardDuringRead, fewest] = [await askAs(author), await askAs(author), await askAs(author)];
    await votes(mostAnswered, 3);
    await votes(heardDuringRead, 1);
    await votes(fewest, 1);
    await restartApp(ctx);
    const counts = ctx.app.memory.trending;
    const read = counts.ranking();
    // The vote the read finds stored, heard late, and one committed after the read began.
    counts.voted(heardDuringRead, 1);
    counts.voted(heardDuringRead, 2);
    const ranking = await read;
    // Counted twice, it would tie the most answered and come first as the newer; not counted, it would come after the
    // fewest.
    expect(ranking.filter((id) => [mostAnswered, heardDuringRead, fewest].includes(id))).toEqual([
      mostAnswered,
      heardDuringRead,
      fewest,
    ]);
  });
});
