import { api, notificationPageSchema, questionSchema, statsSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTallyMismatches } from '../../db/check.js';
import { ask, createTestApp, signUp, type TestContext } from '../../test/helper.js';
import { metricValue } from '../../test/metrics-text.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

function countStatuses(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('simultaneous calls', () => {
  it('takes one of 50 simultaneous answers by one user and refuses the other 49', async () => {
    const author = await signUp(ctx);
    const voter = await signUp(ctx);
    const id = await ask(author, { choices: ['A', 'B', 'C', 'D'] });

    const replies = await Promise.all(
      Array.from({ length: 50 }, (_, index) => voter.api.raw('POST', api.answer(id), { choice: (index % 4) + 1 })),
    );
    expect(countStatuses(replies.map((reply) => reply.status))).toEqual({ 200: 1, 409: 49 });

    const kept = replies.find((reply) => reply.status === 200)!.parse(questionSchema).answer?.choice;
    const question = await voter.api.get(api.question(id), questionSchema);
    expect(question.answer).toEqual({ choice: kept });
    expect(question.result?.count).toBe(1);
    expect((await voter.api.get(api.myStats, statsSchema)).answer).toBe(1);
    expect(await findTallyMismatches(ctx.database.db)).toEqual([]);
  });

  it('counts simultaneous answers of many people on several questions, refusing only a repeated one', async () => {
    const author = await signUp(ctx);
    const questions = [await ask(author, { choices: ['A', 'B'] }), await ask(author, { choices: ['A', 'B', 'C'] })];
    const people = await Promise.all(Array.from({ length: 24 }, () => signUp(ctx)));

    const calls = people.flatMap((person, index) =>
      questions.map((id, which) => person.api.raw('POST', api.answer(id), { choice: ((index + which) % 2) + 1 })),
    );
    // One person answers the first question twice in the same burst.
    calls.push(people[5].api.raw('POST', api.answer(questions[0]), { choice: 2 }));
    const replies = await Promise.all(calls);
    expect(countStatuses(replies.map((reply) => reply.status))).toEqual({ 200: 48, 409: 1 });

    for (const id of questions) {
      expect((await author.api.get(api.question(id), questionSchema)).result?.count).toBe(24);
      const places = await ctx.database.db
        .selectFrom('votes')
        .select('seq')
        .where('question_id', '=', id)
        .orderBy('seq')
        .execute();
      expect(places.map((row) => row.seq)).toEqual(Array.from({ length: 24 }, (_, index) => index + 1));
    }
    expect(await findTallyMismatches(ctx.database.db)).toEqual([]);
  });

  it('writes a burst of likes together, each counted once, the author told of them in one notification', async () => {
    const author = await signUp(ctx);
    const id = await ask(author);
    const people = await Promise.all(Array.from({ length: 20 }, () => signUp(ctx)));
    const batches = async () => {
      const text = (await ctx.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '127.0.0.1' })).body;
      const value = (series: string) => metricValue(text, series) ?? 0;
      return { transactions: value('pollscope_like_batch_size_count'), likes: value('pollscope_like_batch_size_sum') };
    };
    const before = await batches();

    const replies = await Promise.all(people.map((person) => person.api.raw('POST', api.like(id))));
    expect(replies.map((reply) => reply.status)).toEqual(people.map(() => 200));

    const after = await batches();
    expect(after.likes - before.likes).toBe(20);
    expect(after.transactions - before.transactions).toBeLessThan(20);
    expect((await author.api.get(api.question(id), questionSchema)).like_count).toBe(20);
    for (const person of people) expect((await person.api.get(api.question(id), questionSchema)).liked).toBe(true);
    const told = await author.api.get(api.notifications, notificationPageSchema);
    const likes = told.notifications.filter((notification) => notification.kind === 'like');
    expect(likes).toHaveLength(1);
    expect(likes[0].actor_count).toBe(20);
    expect(await findTallyMismatches(ctx.database.db)).toEqual([]);
  });

  it('ends simultaneous likes and unlikes with a like count equal to the likes', async () => {
    const author = await signUp(ctx);
    const id = await ask(author);
    const people = await Promise.all(Array.from({ length: 10 }, () => signUp(ctx)));

    const calls = people.flatMap((person, index) =>
      Array.from({ length: 12 }, (_, round) =>
        person.api.raw('POST', (index + round) % 3 === 0 ? api.unlike(id) : api.like(id)),
      ),
    );
    const replies = await Promise.all(calls);
    expect(replies.every((reply) => reply.status === 200)).toBe(true);

    const states = await Promise.all(people.map((person) => person.api.get(api.question(id), questionSchema)));
    const likers = states.filter((state) => state.liked).length;
    expect((await author.api.get(api.question(id), questionSchema)).like_count).toBe(likers);
    const rows = await ctx.database.db.selectFrom('likes').select('user_id').where('question_id', '=', id).execute();
    expect(rows).toHaveLength(likers);
    expect(await findTallyMismatches(ctx.database.db)).toEqual([]);
  });
});
