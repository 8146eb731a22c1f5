import { api, breakdownFilterBodySchema, breakdownResultSchema, relatePairSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prefixSize } from '../../private-release/binary-tree.js';
import { LEGACY, RELATE_UNITS } from '../../private-release/budget.js';
import { streamVariance } from '../../private-release/factorization.js';
import { relateAllocation } from '../../private-release/relate-design.js';
import { ask, createTestApp, type TestContext, type TestUser } from '../../test/helper.js';
import type { Voter } from '../../views/viewer-states.js';
import { NoiseStore } from './noise-store.js';
import { answerAll, castVotes, createPeople, FRANCE, many, releasedRow, signUpAs, US } from '../../../test/insights.js';

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
    const seen = await new NoiseStore(ctx.database.db).drawAndKeepTreeSums(
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
      await new NoiseStore(ctx.database.db).drawAndKeepTreeSums(
        { questionId: question, otherId: 0, firstCell: US * 256, cells: 28, variance: LEGACY.breakdownVariance },
        treeEpoch,
      ),
    ).toEqual(seen);
    expect(await releaseNoiseRows(question, 0)).toEqual(drawnAfter);

    // Votes up to 64 are new epochs of the factorized stream, at 48 and 64, in `epoch_noise`; the tree's count is
    // untouched.
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
      .select(['epoch', 'counted', 'legacy', 'factorized'])
      .where('question_id', '=', question)
      .orderBy('epoch')
      .execute();
    expect(next).toEqual([
      { epoch: 0, counted: 40, legacy: 1, factorized: 0 },
      { epoch: 1, counted: 48, legacy: 0, factorized: 1 },
      { epoch: 2, counted: 64, legacy: 0, factorized: 1 },
    ]);
    expect(await releaseNoiseRows(question, 0)).toEqual(drawnAfter);
    const epochNoise = await ctx.database.db
      .selectFrom('epoch_noise')
      .select('epoch')
      .where('question_id', '=', question)
      .groupBy('epoch')
      .execute();
    expect(epochNoise.map((row) => row.epoch)).toEqual([1, 2]);
  });
});

describe('a breakdown released in epochs alone, before the stream', () => {
  it('keeps its epochs and their draws, and streams only later votes', async () => {
    const question = await ask(researcher, { choices: ['Yes', 'No'] });
    await answerAll([researcher], question, [1]);
    await castVotes(
      ctx,
      [...people.slice(0, 20), ...people.slice(60, 79)].map((voter, index) => ({
        questionId: question,
        voter,
        choice: (index % 2) + 1,
      })),
    );
    // Its first epoch, as the release before wrote it: seven tables at doublings, read alone.
    const tables = [2, 4, 8, 3, 5, 9, 15].map((mask, index) => ({
      mask,
      num: String(3000 + 1000 * index),
      den: '100',
    }));
    await ctx.database.db
      .insertInto('breakdown_epochs')
      .values({
        question_id: question,
        epoch: 1,
        counted: 32,
        countries: JSON.stringify([FRANCE, US]),
        tables: JSON.stringify(tables),
        legacy: 0,
      })
      .execute();
    const women = () =>
      researcher.api.post(api.breakdown(question), breakdownFilterBodySchema, { gender: 'F' }, breakdownResultSchema);
    expect((await women()).privacy.counted).toBe(32);
    const noiseOf = (epoch: number) =>
      ctx.database.db
        .selectFrom('epoch_noise')
        .select(['cell', 'noise'])
        .where('question_id', '=', question)
        .where('epoch', '=', epoch)
        .orderBy('cell')
        .execute();
    const drawn = await noiseOf(1);
    // Every cell of its seven tables, one after another, as that release drew them: 2 + 7 + 2 + 4 + 14 + 4 + 56.
    expect(drawn.map(({ cell }) => cell)).toEqual(Array.from({ length: 89 }, (_, cell) => cell));

    await castVotes(
      ctx,
      [...people.slice(20, 45), ...people.slice(79, 84)].map((voter) => ({ questionId: question, voter, choice: 1 })),
    );
    expect((await women()).privacy.counted).toBe(64);
    const epochs = await ctx.database.db
      .selectFrom('breakdown_epochs')
      .select(['epoch', 'counted', 'factorized'])
      .where('question_id', '=', question)
      .orderBy('epoch')
      .execute();
    expect(epochs).toEqual([
      { epoch: 1, counted: 32, factorized: 0 },
      { epoch: 2, counted: 48, factorized: 1 },
      { epoch: 3, counted: 64, factorized: 1 },
    ]);
    expect(await noiseOf(1)).toEqual(drawn);
    expect((await noiseOf(2)).length).toBeGreaterThan(0);
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
    const seen = await new NoiseStore(db).drawAndKeepTreeSums(
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
      await new NoiseStore(ctx.database.db).drawAndKeepTreeSums(
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
      .select(['epoch', 'variance', 'tables'])
      .where('low_id', '=', low)
      .where('high_id', '=', high)
      .orderBy('epoch')
      .execute();
    expect(epochs.map((epoch) => epoch.epoch)).toEqual([3, 4]);
    expect(epochs[0]).toMatchObject({ variance: null, tables: null });
    // The later people are the first epoch of a factorized stream, its tables those for relating the pair as asked.
    expect(JSON.parse(epochs[1].tables!)).toEqual(
      relateAllocation(2, 2).map(({ mask, variance }) => {
        const stream = streamVariance(variance);
        return { mask, num: String(stream.num), den: String(stream.den) };
      }),
    );
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

describe('a relate pair released in epochs alone, before the stream', () => {
  it('keeps its epoch and its draws, streams only later people, and spends nothing more', async () => {
    const yesNo = { type: 'MC' as const, keys: [1, 2] };
    const low = { id: await ask(researcher, { choices: ['Yes', 'No'] }), kind: yesNo };
    const high = { id: await ask(researcher, { choices: ['Yes', 'No'] }), kind: yesNo };
    await answerAll([researcher], low.id, [1]);
    await answerAll([researcher], high.id, [1]);
    const addVoters = (voters: Voter[]) =>
      castVotes(
        ctx,
        voters.flatMap((voter, index) => [
          { questionId: low.id, voter, choice: (index % 2) + 1 },
          { questionId: high.id, voter, choice: index % 3 === 0 ? 1 : 2 },
        ]),
      );
    await addVoters(people.slice(0, 31));
    // As the release before wrote it: opened, then its first 32 people released alone, σ² = 64 per cell.
    const { db } = ctx.database;
    await db
      .insertInto('relate_releases')
      .values([
        { low_id: low.id, high_id: high.id, epoch: 0, low_counted: 0, high_counted: 0, variance: 64 },
        { low_id: low.id, high_id: high.id, epoch: 1, low_counted: 32, high_counted: 32, variance: 64 },
      ])
      .execute();
    await db
      .insertInto('relate_budgets')
      .values([
        { question_id: low.id, pairs: 2 },
        { question_id: high.id, pairs: 2 },
      ])
      .execute();
    const drawsOfEpoch1 = () =>
      new NoiseStore(db).drawAndKeepEpoch({ questionId: low.id, otherId: high.id, epoch: 1 }, [
        { cells: 4, variance: { num: 64n, den: 1n } },
      ]);
    const seen = await drawsOfEpoch1();
    const before = await researcher.api.get(api.relate(low.id, high.id), relatePairSchema);
    // A choice's count of one full table of σ² = 64, held to its total: variance 64.
    expect(before.privacy).toEqual({ first_counted: 32, second_counted: 32, count_sd: 8 });

    // As many people again: the next epoch starts the stream, and the pair spends nothing more.
    await addVoters(people.slice(31, 63));
    const after = await researcher.api.get(api.relate(low.id, high.id), relatePairSchema);
    const row = await releasedRow(ctx, low, high, 1);
    expect(after.privacy).toEqual({
      first_counted: 64,
      second_counted: 64,
      count_sd: Math.round(row.countSd * 100) / 100,
    });
    // The epoch alone and the stream's first epoch, independent: 64 + 1.53 × 47.1.
    expect(row.countSd).toBeCloseTo(Math.sqrt(64 + 72.3), 1);
    const epochs = await db
      .selectFrom('relate_releases')
      .select(['epoch', 'variance', 'tables'])
      .where('low_id', '=', low.id)
      .where('high_id', '=', high.id)
      .orderBy('epoch')
      .execute();
    expect(epochs.map((epoch) => [epoch.epoch, epoch.variance === 64, epoch.tables === null])).toEqual([
      [0, true, true],
      [1, true, true],
      [2, false, false],
    ]);
    expect(await drawsOfEpoch1()).toEqual(seen);
    const budgets = await db
      .selectFrom('relate_budgets')
      .select('pairs')
      .where('question_id', 'in', [low.id, high.id])
      .execute();
    expect(budgets.map((budget) => budget.pairs)).toEqual([2, 2]);
  });
});
