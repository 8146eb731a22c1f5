import { api, breakdownFilterBodySchema, breakdownResultSchema, relatePairSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefixSize } from '../../private-release/binary-tree.js';
import { LEGACY, RELATE_UNITS } from '../../private-release/budget.js';
import { ask, createTestApp, type TestContext, type TestUser } from '../../test/helper.js';
import type { Voter } from '../../views/viewer-states.js';
import { NoiseStore } from './noise-store.js';
import { answerAll, castVotes, createPeople, FRANCE, many, signUpAs, US } from '../../../test/insights.js';

/**
 * Questions and pairs released by the binary tree before keep what they released: the draws
 * already kept are read, never drawn again (fresh draws for counts someone saw could be averaged
 * with the old), the votes that release counted stay in it, and only later votes go into the
 * epochs released now. A tree pair moves on only if its questions' budgets have the unit more
 * that its later people cost.
 */

let ctx: TestContext;
let researcher: TestUser;
let people: Voter[];

beforeAll(async () => {
  ctx = await createTestApp();
  researcher = await signUpAs(ctx, { gender: 'F', age: 30, country: US });
  people = await createPeople(ctx, [
    ...many(60, { gender: 'F', age: 30, country: US }),
    ...many(60, { gender: 'M', age: 50, country: FRANCE }),
  ]);
});
afterAll(() => ctx.close());

const releaseNoiseRows = (questionId: number, otherId: number) =>
  ctx.database.db
    .selectFrom('release_noise')
    .select(['cell', 'node', 'noise'])
    .where('question_id', '=', questionId)
    .where('other_id', '=', otherId)
    .orderBy('cell')
    .orderBy('node')
    .execute();

describe('a breakdown released by the binary tree', () => {
  it('keeps its count and its draws as epoch 0, and releases only later votes anew', async () => {
    const question = await ask(researcher, { choices: ['Yes', 'No'] });
    await answerAll([researcher], question, [1]);
    // 39 more votes: 40 in all, the tree's epoch 36 (every vote up to 32, then every second one).
    await castVotes(
      ctx,
      [...people.slice(0, 20), ...people.slice(60, 79)].map((voter, index) => ({
        questionId: question,
        voter,
        choice: (index % 2) + 1,
      })),
    );
    const treeEpoch = LEGACY.releases.index(40);
    // What the tree's server drew when someone asked for the women of the US.
    const seen = await new NoiseStore(ctx.database.db).sums(
      { questionId: question, otherId: 0, firstCell: US * 256, cells: 28, variance: LEGACY.breakdownVariance },
      treeEpoch,
    );
    const drawnBefore = await releaseNoiseRows(question, 0);

    const women = await researcher.api.post(
      api.breakdown(question),
      breakdownFilterBodySchema,
      { gender: 'F', country: US },
      breakdownResultSchema,
    );
    expect(women.privacy.counted).toBe(40);
    const epochs = await ctx.database.db
      .selectFrom('breakdown_epochs')
      .selectAll()
      .where('question_id', '=', question)
      .execute();
    expect(epochs).toMatchObject([{ epoch: 0, counted: 40, legacy: 1 }]);
    const variance = prefixSize(treeEpoch) * LEGACY.breakdownVariance;
    expect(JSON.parse(epochs[0].tables)).toEqual([
      { mask: 15, num: String(variance), den: '1' },
      { mask: 7, num: String(variance), den: '1' },
    ]);
    // The draws someone saw are the ones read; the blocks nobody had asked for are drawn by the tree's rule, once.
    const drawnAfter = await releaseNoiseRows(question, 0);
    for (const row of drawnBefore) expect(drawnAfter).toContainEqual(row);
    expect(
      await new NoiseStore(ctx.database.db).sums(
        { questionId: question, otherId: 0, firstCell: US * 256, cells: 28, variance: LEGACY.breakdownVariance },
        treeEpoch,
      ),
    ).toEqual(seen);
    expect(await releaseNoiseRows(question, 0)).toEqual(drawnAfter);

    // Votes up to 64 are a new epoch, in `epoch_noise`; the tree's count is untouched.
    await castVotes(
      ctx,
      [...people.slice(20, 45), ...people.slice(79, 84)].map((voter) => ({ questionId: question, voter, choice: 1 })),
    );
    const later = await researcher.api.post(
      api.breakdown(question),
      breakdownFilterBodySchema,
      { gender: 'F' },
      breakdownResultSchema,
    );
    expect(later.privacy.counted).toBe(64);
    const next = await ctx.database.db
      .selectFrom('breakdown_epochs')
      .select(['epoch', 'counted', 'legacy'])
      .where('question_id', '=', question)
      .orderBy('epoch')
      .execute();
    expect(next).toEqual([
      { epoch: 0, counted: 40, legacy: 1 },
      { epoch: 1, counted: 64, legacy: 0 },
    ]);
    expect(await releaseNoiseRows(question, 0)).toEqual(drawnAfter);
    const epochNoise = await ctx.database.db
      .selectFrom('epoch_noise')
      .select('epoch')
      .where('question_id', '=', question)
      .groupBy('epoch')
      .execute();
    expect(epochNoise.map((row) => row.epoch)).toEqual([1]);
  });
});

describe('a relate pair released by the binary tree', () => {
  /**
   * Two questions answered by the first `voters` people, the pair released by the tree up to them, as the server before
   * this one left it.
   */
  async function treePair(voters: number) {
    const low = await ask(researcher, { choices: ['Yes', 'No'] });
    const high = await ask(researcher, { choices: ['Yes', 'No'] });
    await answerAll([researcher], low, [1]);
    await answerAll([researcher], high, [1]);
    const crowd = people.slice(0, voters - 1);
    await castVotes(ctx, [
      ...crowd.map((voter, index) => ({ questionId: low, voter, choice: (index % 2) + 1 })),
      ...crowd.map((voter) => ({ questionId: high, voter, choice: 1 })),
    ]);
    const { db } = ctx.database;
    await db
      .insertInto('relate_releases')
      .values({ low_id: low, high_id: high, epoch: 3, low_counted: voters, high_counted: voters, variance: null })
      .execute();
    await db
      .insertInto('relate_budgets')
      .values([
        { question_id: low, pairs: LEGACY.relatePairUnits },
        { question_id: high, pairs: LEGACY.relatePairUnits },
      ])
      .execute();
    const seen = await new NoiseStore(db).sums(
      { questionId: low, otherId: high, firstCell: 0, cells: 4, variance: LEGACY.relateVariance },
      3,
    );
    return { low, high, seen };
  }

  const addVoters = (low: number, high: number, voters: Voter[]) =>
    castVotes(ctx, [
      ...voters.map((voter) => ({ questionId: low, voter, choice: 1 })),
      ...voters.map((voter) => ({ questionId: high, voter, choice: 2 })),
    ]);

  it('keeps its epoch and its noise, and moves on for a unit more of each question’s budget', async () => {
    const { low, high, seen } = await treePair(30);
    const before = await researcher.api.get(api.relate(low, high), relatePairSchema);
    // Its count and noise stand as the tree released them: 30 people, noise of variance 2 × 1,280 per cell.
    expect(before.privacy).toMatchObject({ first_counted: 30, second_counted: 30 });
    expect(before.privacy!.count_sd).toBeGreaterThan(40);
    expect(
      await new NoiseStore(ctx.database.db).sums(
        { questionId: low, otherId: high, firstCell: 0, cells: 4, variance: LEGACY.relateVariance },
        3,
      ),
    ).toEqual(seen);

    // As many people again answer both: a new epoch, which costs a unit more of each budget.
    await addVoters(low, high, people.slice(29, 69));
    const after = await researcher.api.get(api.relate(low, high), relatePairSchema);
    // It counts up to the last of each question's points (16 per doubling) that the votes passed: 68 of 70.
    expect(after.privacy!.first_counted).toBe(LEGACY.releases.point(LEGACY.releases.index(70)));
    const budgets = await ctx.database.db
      .selectFrom('relate_budgets')
      .select('pairs')
      .where('question_id', 'in', [low, high])
      .execute();
    expect(budgets.map((row) => row.pairs)).toEqual([2, 2]);
    const epochs = await ctx.database.db
      .selectFrom('relate_releases')
      .select(['epoch', 'variance'])
      .where('low_id', '=', low)
      .where('high_id', '=', high)
      .orderBy('epoch')
      .execute();
    expect(epochs).toEqual([
      { epoch: 3, variance: null },
      { epoch: 4, variance: 64 },
    ]);
  });

  it('stays as the tree left it when a question has no unit left', async () => {
    const { low, high } = await treePair(30);
    await ctx.database.db
      .updateTable('relate_budgets')
      .set({ pairs: RELATE_UNITS })
      .where('question_id', '=', low)
      .execute();
    await addVoters(low, high, people.slice(29, 69));
    const pair = await researcher.api.get(api.relate(low, high), relatePairSchema);
    expect(pair.privacy).toMatchObject({ first_counted: 30, second_counted: 30 });
    const epochs = await ctx.database.db
      .selectFrom('relate_releases')
      .select('epoch')
      .where('low_id', '=', low)
      .where('high_id', '=', high)
      .execute();
    expect(epochs).toHaveLength(1);
  });
});
