import {
  answerBodySchema,
  api,
  blockedSchema,
  connectedSchema,
  feedSchema,
  likedSchema,
  passedSchema,
  questionSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ask, createTestApp, restartApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { moderate } from '../../test/moderation.js';
import { utcDay } from '../site/index.js';

const DAY_MS = 24 * 3600 * 1000;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/**
 * Each test chooses today's question afresh, from only the questions it dates into the past week,
 * on a server started anew: a server keeps the day's choice once made.
 */
beforeEach(async () => {
  const { db } = ctx.database;
  await db.deleteFrom('questions_of_the_day').execute();
  await db.updateTable('questions').set({ published_at: new Date().toISOString() }).execute();
  await restartApp(ctx);
});

/** Moves a question's publication this many days (and an hour) before the start of today, UTC. */
async function publishedDaysAgo(id: number, days: number): Promise<void> {
  const startOfToday = Date.parse(`${utcDay()}T00:00:00Z`);
  const published = new Date(startOfToday - days * DAY_MS + 3600 * 1000).toISOString();
  await ctx.database.db.updateTable('questions').set({ published_at: published }).where('id', '=', id).execute();
}

/** Answers and likes a question by that many new voters. */
async function popular(id: number, votes: number, likes = 0): Promise<void> {
  for (let index = 0; index < Math.max(votes, likes); index += 1) {
    const fan = await signUp(ctx);
    if (index < votes) await fan.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
    if (index < likes) await fan.api.post(api.like(id), likedSchema);
  }
}

async function qotdOf(user: TestUser): Promise<number | null> {
  const reply = await user.api.raw('GET', api.feed);
  expect(reply.status).toBe(200);
  return reply.parse(feedSchema).qotd?.id ?? null;
}

describe('the question of the day', () => {
  it('is the most voted plus liked question of the 7 days before today, the same for everyone', async () => {
    const author = await signUp(ctx);
    const [quiet, liked, voted] = [
      await ask(author, { question: 'Quiet?' }),
      await ask(author, { question: 'Liked?' }),
      await ask(author, { question: 'Voted?' }),
    ];
    await publishedDaysAgo(quiet, 1);
    await publishedDaysAgo(liked, 3);
    await publishedDaysAgo(voted, 7);
    await popular(quiet, 1);
    await popular(liked, 1, 3);
    await popular(voted, 3);
    // Votes plus likes: quiet 1, liked 4, voted 3.

    const reader = await signUp(ctx);
    const stranger = await signUp(ctx);
    expect(await qotdOf(reader)).toBe(liked);
    expect(await qotdOf(stranger)).toBe(liked);
    // Shown whether or not the caller follows its author.
    const feed = await reader.api.get(api.feed, feedSchema);
    expect(feed.questions).toEqual([]);
    expect(feed.qotd).toMatchObject({ id: liked, like_count: 3, result: null, answer: null });
  });

  it('leaves out questions published today or more than 7 days before today', async () => {
    const author = await signUp(ctx);
    const [today, tooOld, inWeek] = [
      await ask(author, { question: 'Today?' }),
      await ask(author, { question: 'Too old?' }),
      await ask(author, { question: 'In the week?' }),
    ];
    await publishedDaysAgo(tooOld, 8);
    await publishedDaysAgo(inWeek, 7);
    await popular(today, 3);
    await popular(tooOld, 3);
    await popular(inWeek, 1);
    expect(await qotdOf(await signUp(ctx))).toBe(inWeek);
  });

  it('goes to the lowest id on a tie', async () => {
    const author = await signUp(ctx);
    const first = await ask(author, { question: 'First?' });
    const second = await ask(author, { question: 'Second?' });
    await publishedDaysAgo(second, 1);
    await publishedDaysAgo(first, 2);
    await popular(first, 1, 1);
    await popular(second, 2);
    expect(await qotdOf(await signUp(ctx))).toBe(first);
  });

  it('is null when nothing was published in the week before', async () => {
    const author = await signUp(ctx);
    await popular(await ask(author), 2);
    const feed = await author.api.get(api.feed, feedSchema);
    expect(feed.qotd).toBeNull();
  });

  it('stays the same all day once chosen, even when another question overtakes it', async () => {
    const author = await signUp(ctx);
    const chosen = await ask(author, { question: 'Chosen?' });
    const later = await ask(author, { question: 'Overtakes?' });
    await publishedDaysAgo(chosen, 2);
    await publishedDaysAgo(later, 2);
    await popular(chosen, 1);
    const reader = await signUp(ctx);
    expect(await qotdOf(reader)).toBe(chosen);
    await popular(later, 3);
    expect(await qotdOf(reader)).toBe(chosen);
    expect(await qotdOf(await signUp(ctx))).toBe(chosen);
  });

  it('is hidden from a caller who passed it or who blocked its author or was blocked by them', async () => {
    const author = await signUp(ctx);
    const id = await ask(author);
    await publishedDaysAgo(id, 1);
    await popular(id, 1);
    const [passer, blocker, blocked, other] = [
      await signUp(ctx),
      await signUp(ctx),
      await signUp(ctx),
      await signUp(ctx),
    ];
    await passer.api.post(api.pass(id), passedSchema);
    await blocker.api.post(api.ban(author.id), blockedSchema);
    await author.api.post(api.ban(blocked.id), blockedSchema);

    expect(await qotdOf(other)).toBe(id);
    expect(await qotdOf(passer)).toBeNull();
    expect(await qotdOf(blocker)).toBeNull();
    expect(await qotdOf(blocked)).toBeNull();
    await passer.api.post(api.unpass(id), passedSchema);
    expect(await qotdOf(passer)).toBe(id);
  });

  it('is shown above the first page of the feed only', async () => {
    const author = await signUp(ctx);
    const reader = await signUp(ctx);
    await reader.api.post(api.follow(author.id), connectedSchema);
    const id = await ask(author);
    await ask(author);
    await publishedDaysAgo(id, 1);
    const first = await reader.api.get(`${api.feed}?limit=1`, feedSchema);
    expect(first.qotd?.id).toBe(id);
    const second = await reader.api.get(`${api.feed}?limit=1&cursor=${first.next}`, feedSchema);
    expect(second.qotd).toBeNull();
    expect(second.questions.map((question) => question.id)).toEqual([id]);
  });

  it('is chosen among the questions moderators withhold from nobody', async () => {
    const [author, suspect, moderator] = [await signUp(ctx), await signUp(ctx), await signUp(ctx)];
    await ctx.database.db.updateTable('users').set({ role: 'moderator' }).where('id', '=', moderator.id).execute();
    const [removed, suspects, shown] = [
      await ask(author, { question: 'Removed?' }),
      await ask(suspect, { question: 'Suspect’s?' }),
      await ask(author, { question: 'Shown?' }),
    ];
    for (const id of [removed, suspects, shown]) await publishedDaysAgo(id, 2);
    await popular(removed, 3);
    await popular(suspects, 2);
    await popular(shown, 1);
    await moderate(moderator, { target: 'question', id: removed, action: 'remove', reason: 'Spam' });
    await moderate(moderator, { target: 'user', id: suspect.id, action: 'suspend', reason: 'Spam' });
    expect(await qotdOf(await signUp(ctx))).toBe(shown);
  });
});
