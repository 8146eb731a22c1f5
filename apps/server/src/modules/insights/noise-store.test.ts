import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../db/index.js';
import { createTestApp, type TestContext } from '../../test/helper.js';
import { NoiseStore, type NoiseBlock } from './noise-store.js';
import { LEGACY } from '../../private-release/budget.js';

let ctx: TestContext;
/** A second connection to the same database, as another server instance has. */
let other: DatabaseHandle;
beforeAll(async () => {
  ctx = await createTestApp();
  other = openDatabase(ctx.config.databaseUrl);
});
afterAll(async () => {
  await other.close();
  await ctx.close();
});

let nextQuestion = 1_000_000;
const block = (cells = 40): NoiseBlock => ({
  questionId: (nextQuestion += 1),
  otherId: 0,
  firstCell: 250 * 256,
  cells,
  variance: LEGACY.breakdownVariance,
});
const rowsOf = (questionId: number) =>
  ctx.database.db
    .selectFrom('release_noise')
    .select((eb) => eb.fn.countAll<number>().as('rows'))
    .where('question_id', '=', questionId)
    .executeTakeFirstOrThrow()
    .then((row) => Number(row.rows));

describe('the noise store', () => {
  it('draws each node of each cell once and gives the same noise every time after', async () => {
    const store = new NoiseStore(ctx.database.db);
    const cells = block();
    // Epoch 7 is tiled by three nodes (epochs 1–4, 5–6 and 7).
    const first = await store.drawAndKeepTreeSums(cells, 7);
    expect(await rowsOf(cells.questionId)).toBe(40 * 3);
    expect(await store.drawAndKeepTreeSums(cells, 7)).toEqual(first);
    // Noise of standard deviation 12 per node: forty cells of three nodes are not all 0.
    expect(first.some((noise) => noise !== 0)).toBe(true);
    // Epoch 8 is one new node over epochs 1–8: drawn once, for every cell.
    await store.drawAndKeepTreeSums(cells, 8);
    expect(await rowsOf(cells.questionId)).toBe(40 * 4);
    expect(await store.drawAndKeepTreeSums(cells, 7)).toEqual(first);
  });

  it('gives another instance, or the same one after a restart, the noise already drawn', async () => {
    const cells = block();
    const drawn = await new NoiseStore(ctx.database.db).drawAndKeepTreeSums(cells, 13);
    expect(await new NoiseStore(other.db).drawAndKeepTreeSums(cells, 13)).toEqual(drawn);
    expect(await rowsOf(cells.questionId)).toBe(40 * 3);
  });

  it('keeps one draw when instances draw the same cells at once, and both use it', async () => {
    for (let round = 0; round < 5; round += 1) {
      const cells = block(100);
      const [here, there] = await Promise.all([
        new NoiseStore(ctx.database.db).drawAndKeepTreeSums(cells, 31),
        new NoiseStore(other.db).drawAndKeepTreeSums(cells, 31),
      ]);
      expect(there).toEqual(here);
      expect(await rowsOf(cells.questionId)).toBe(100 * 5);
      expect(await new NoiseStore(ctx.database.db).drawAndKeepTreeSums(cells, 31)).toEqual(here);
    }
  });

  it('adds up the draws of the nodes that tile the epochs', async () => {
    const store = new NoiseStore(ctx.database.db);
    const cells = block(1);
    const [two, three, four] = [
      await store.drawAndKeepTreeSums(cells, 2),
      await store.drawAndKeepTreeSums(cells, 3),
      await store.drawAndKeepTreeSums(cells, 4),
    ];
    const nodes = await ctx.database.db
      .selectFrom('release_noise')
      .select(['node', 'noise'])
      .where('question_id', '=', cells.questionId)
      .orderBy('node')
      .execute();
    // Nodes by level and position: epochs 1–2 (level 1), epoch 3 (level 0, position 2), epochs 1–4 (level 2).
    const noiseOf = (level: number, position: number) => nodes.find((row) => row.node === position * 32 + level)!.noise;
    expect(two[0]).toBe(noiseOf(1, 0));
    expect(three[0]).toBe(noiseOf(1, 0) + noiseOf(0, 2));
    expect(four[0]).toBe(noiseOf(2, 0));
    expect(await store.drawAndKeepTreeSums(cells, 0)).toEqual(new Int32Array(1));
  });
});
