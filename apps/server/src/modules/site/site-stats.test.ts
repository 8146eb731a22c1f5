import {
  answerBodySchema,
  api,
  likedSchema,
  questionSchema,
  quizListSchema,
  siteStatsSchema,
} from '@pollscope/contract';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask, client, createTestApp, signUp, type TestContext } from '../../test/helper.js';
import { utcDay } from './activity.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());
afterEach(() => {
  vi.useRealTimers();
});

const siteStats = () => client(ctx.app).get(api.siteStats, siteStatsSchema.strict());

describe('site stats', () => {
  it('count people, questions, answers and likes for anyone, refreshed at most every 30 seconds', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    // Only the seeded quiz so far, asked by the team's account, which is nobody's.
    const quizSize = (await client(ctx.app).get(api.quizes, quizListSchema)).length;
    expect(await siteStats()).toMatchObject({ users: 0, questions: quizSize, answers: 0, likes: 0 });

    const author = await signUp(ctx);
    const voter = await signUp(ctx);
    const id = await ask(author);
    await voter.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
    await author.api.post(api.answer(id), answerBodySchema, { choice: 2 }, questionSchema);
    await voter.api.post(api.like(id), likedSchema);
    expect(await siteStats()).toMatchObject({ users: 0, questions: quizSize, answers: 0, likes: 0 });

    vi.setSystemTime(Date.now() + 31_000);
    expect(await siteStats()).toMatchObject({ users: 2, questions: quizSize + 1, answers: 2, likes: 1 });
  });

  it('name a chart that anyone can load as an SVG of the answers per day over 30 days', async () => {
    const author = await signUp(ctx);
    const id = await ask(author);
    // Each answer commits on its own and counts on one of the day's rows, picked at random.
    for (const voter of [author, await signUp(ctx), await signUp(ctx), await signUp(ctx)]) {
      await voter.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
    }
    const { image } = await siteStats();
    expect(image.startsWith('/api/')).toBe(true);
    const reply = await ctx.app.inject({ url: image });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^image\/svg\+xml/);
    const svg = reply.body;
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const days = [...svg.matchAll(/<title>(\d{4}-\d{2}-\d{2}): (\d+)<\/title>/g)].map((match) => [
      match[1],
      Number(match[2]),
    ]);
    expect(days.map(([day]) => day)).toEqual(
      Array.from({ length: 30 }, (_, index) => utcDay(new Date(Date.now() - (29 - index) * 24 * 3600 * 1000))),
    );
    // Today is the last bar, with every answer given today.
    const answersToday = await ctx.database.db
      .selectFrom('votes')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('created_at', '>=', utcDay())
      .executeTakeFirstOrThrow();
    expect(days.at(-1)).toEqual([utcDay(), Number(answersToday.count)]);
    expect(days.at(-1)?.[1]).toBeGreaterThanOrEqual(4);
  });

  it('draw the chart in the colours of the page’s theme, light or dark, on the page’s own background', async () => {
    const svg = (await ctx.app.inject({ url: (await siteStats()).image })).body;
    expect(svg).toMatch(/@media \(prefers-color-scheme:dark\)\{[^}]*text\{fill:#aaa5bd\}/);
    expect(svg).not.toMatch(/fill="#fff"|<rect width="100%"/);
  });

  it('give the chart’s numbers as data too, for readers who cannot see it', async () => {
    const author = await signUp(ctx);
    await author.api.post(api.answer(await ask(author)), answerBodySchema, { choice: 1 }, questionSchema);
    const { answers_per_day: perDay } = await siteStats();
    expect(perDay).toHaveLength(30);
    expect(perDay.at(-1)?.day).toBe(utcDay());
    const svg = (await ctx.app.inject({ url: (await siteStats()).image })).body;
    const bars = [...svg.matchAll(/<title>(\d{4}-\d{2}-\d{2}): (\d+)<\/title>/g)].map((match) => ({
      day: match[1],
      answers: Number(match[2]),
    }));
    expect(perDay).toEqual(bars);
  });
});
