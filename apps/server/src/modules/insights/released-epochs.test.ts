import {
  api,
  breakdownInfoSchema,
  breakdownResultSchema,
  relatePairSchema,
  relateResultSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { castVotes, createPeople, csvRecords, FRANCE, queryString, US, many } from '../../../test/insights.js';

/**
 * An epoch once released never changes: deleting an account leaves the votes released epochs
 * counted in them, tied to nobody, so that nobody who saved a release before the deletion reads
 * the person's answers from the difference after.
 */

let ctx: TestContext;
let target: TestUser;
let attacker: TestUser;
let walk: number;
let early: number;

const filters: Record<string, string | number>[] = [
  { gender: 'F' },
  { gender: 'M' },
  { country: FRANCE },
  { country: US },
  { gender: 'F', country: FRANCE },
  { min_age: 25, max_age: 34 },
  { min_age: 25, max_age: 34, gender: 'F', country: FRANCE },
];

// The target, a woman of 30 in France, votes first; 64 more people after her: release points at
// 32 and 64 votes, so both released epochs of each question, and the relate pair's, count her.
beforeAll(async () => {
  ctx = await createTestApp();
  const author = await signUp(ctx);
  walk = await ask(author, { question: 'Which way to work?', choices: ['Walk', 'Bike', 'Drive'] });
  early = await ask(author, { question: 'Early riser?', choices: ['Yes', 'No'] });
  target = await signUp(ctx, { gender: 'F', birthDate: `${new Date().getUTCFullYear() - 30}-01-01`, livingIn: FRANCE });
  attacker = await signUp(ctx, { gender: 'M', livingIn: US });
  for (const [question, choice] of [
    [walk, 2],
    [early, 1],
  ])
    expect((await target.api.raw('POST', api.answer(question), { choice })).status).toBe(200);
  const crowd = await createPeople(ctx, [
    ...many(20, { gender: 'F', age: 30, country: FRANCE }),
    ...many(20, { gender: 'M', age: 40, country: US }),
    ...many(23, { gender: 'F', age: 60, country: US }),
  ]);
  await castVotes(
    ctx,
    crowd.flatMap((voter, index) => [
      { questionId: walk, voter, choice: (index % 3) + 1 },
      { questionId: early, voter, choice: (index % 2) + 1 },
    ]),
  );
  for (const question of [walk, early])
    expect((await attacker.api.raw('POST', api.answer(question), { choice: 1 })).status).toBe(200);
});
afterAll(() => ctx.close());

/** The columns of a download's lines that the release gives: the group's, not everyone's exact ones. */
const releasedColumns = (text: string) =>
  csvRecords(text).map(({ answer, votes, noise_sd, percent, margin_of_error, note }) => ({
    answer,
    votes,
    noise_sd,
    percent,
    margin_of_error,
    note,
  }));

/** Every release touching the target, as the attacker reads it: breakdowns, splits, downloads and relate. */
async function releases(): Promise<unknown[]> {
  const read: unknown[] = [];
  for (const question of [walk, early]) {
    const info = (await attacker.api.raw('GET', api.breakdown(question))).parse(breakdownInfoSchema);
    read.push(info.filters, info.splits);
    for (const filter of filters) {
      const body = (await attacker.api.raw('POST', api.breakdown(question), filter)).parse(breakdownResultSchema);
      expect(body.privacy.exact).toBe(false);
      read.push(body.question.result, body.overall, body.comparison, body.ages, body.privacy);
      read.push((await attacker.api.raw('GET', `${api.breakdownCsv(question)}?${queryString(filter)}`)).text);
    }
  }
  for (const [first, second, choices] of [
    [walk, early, 2],
    [early, walk, 3],
  ]) {
    const pair = (await attacker.api.raw('GET', api.relate(first, second))).parse(relatePairSchema);
    read.push(pair.choices, pair.association, pair.privacy);
    for (let choice = 1; choice <= choices; choice += 1) {
      const body = (await attacker.api.raw('POST', api.relate(first, second), { choice })).parse(relateResultSchema);
      read.push(body.question.result, body.association, body.privacy);
    }
    read.push(releasedColumns((await attacker.api.raw('GET', api.relateCsv(first, second))).text));
  }
  return read;
}

describe('deleting an account', () => {
  it('changes no release that counted its votes', async () => {
    const before = await releases();
    expect((await target.api.raw('POST', api.deleteAccount, { password: 'correct horse' })).status).toBe(204);
    // The votes are gone from the questions' own results, and from every table of the votes left.
    const { db } = ctx.database;
    expect(await db.selectFrom('votes').select('id').where('user_id', '=', target.id).execute()).toEqual([]);
    const { vote_count } = await db
      .selectFrom('questions')
      .select('vote_count')
      .where('id', '=', walk)
      .executeTakeFirstOrThrow();
    expect(vote_count).toBe(64);
    expect(await releases()).toEqual(before);
    // Epochs released once: no new draw, no epoch counted again.
    const epochs = await db.selectFrom('breakdown_epochs').select(['question_id', 'epoch', 'counted']).execute();
    expect(epochs.filter((epoch) => epoch.question_id === walk).map((epoch) => epoch.counted)).toEqual([32, 48, 64]);
  });

  it('leaves only the epochs to come: a later epoch counts the votes left', async () => {
    const { db } = ctx.database;
    const crowd = await createPeople(ctx, many(70, { gender: 'M', age: 40, country: US }));
    await castVotes(
      ctx,
      crowd.map((voter) => ({ questionId: walk, voter, choice: 3 })),
    );
    const body = (await attacker.api.raw('POST', api.breakdown(walk), { country: US })).parse(breakdownResultSchema);
    expect(body.privacy.counted).toBe(128);
    // The epochs from 65 to 128 count the votes cast; the kept one is in the epochs before them.
    const kept = await db.selectFrom('removed_vote_segments').selectAll().where('question_id', '=', walk).execute();
    expect(kept.map((row) => [row.country_id, row.gender, row.choice, row.count])).toEqual([[FRANCE, 'F', 2, 1]]);
    // Everyone among the votes the release counts: the 128 cast up to its point, the deleted one kept.
    expect(body.overall.count).toBe(128);
  });
});
