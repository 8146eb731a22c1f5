import type { Db } from '../../db/index.js';
import { asNumber, type Allocation } from '../../private-release/allocation.js';
import { LEGACY, RELATE_PAIR_UNITS, RELATE_UNITS } from '../../private-release/budget.js';
import { streamVariance } from '../../private-release/factorization.js';
import { FIRST, relateAllocation, SECOND } from '../../private-release/relate-design.js';
import { questionKind } from '../../views/results.js';
import { bucketsOf } from './buckets.js';
import { lockForRelease } from './kept-votes.js';

/**
 * The epochs of pairs' relate releases, kept in `relate_releases`. An epoch of a pair counts the
 * people among the first `lowCounted` voters of one question and the first `highCounted` of the
 * other whom the epoch before did not; each epoch reaches further, so each person's pair of
 * answers falls in exactly one. Epoch 0 of a pair released now counts nobody: it marks the pair
 * open, its budget spent, and fixes the tables of its factorized stream (`tables`), which every
 * later epoch measures again, its noise decoded with theirs (private-release/factorization.ts).
 * Epochs released before the stream are read alone, as they were released: a pair released by the
 * binary tree (its epochs have no `variance`) keeps its latest epoch, and an epoch released alone
 * has one full table of `variance`; the stream goes on after them.
 *
 * A question's relate budget is RELATE_UNITS units of ρ = 1/128 (`relate_budgets.pairs`): a pair
 * released now spends 2 of each of its questions' units (ρ = 1/64), a tree pair spent 1, and
 * releasing more of a tree pair spends the 1 more that the votes it then counts cost. Rows are
 * written with "insert unless there", so instances that open or move a pair at once agree on
 * what the first of them wrote.
 */
export interface RelateEpoch {
  epoch: number;
  lowCounted: number;
  highCounted: number;
  /**
   * The noise variance of each cell of the epoch's full table, rounded up for an epoch of the
   * stream (its `tables` say exactly); null for the tree's epoch.
   */
  variance: number | null;
  /**
   * The tables of an epoch of the factorized stream, each with its release's noise variance, by
   * masks of the pair's order (bit 0 the lower question's answer, bit 1 the other's); null for an
   * epoch released before the stream.
   */
  tables: Allocation[] | null;
}

export interface Reach {
  low: number;
  high: number;
}

class BudgetSpentError extends Error {}

export async function epochsOf(db: Db, low: number, high: number): Promise<RelateEpoch[]> {
  const rows = await db
    .selectFrom('relate_releases')
    .select(['epoch', 'low_counted', 'high_counted', 'variance', 'tables'])
    .where('low_id', '=', low)
    .where('high_id', '=', high)
    .orderBy('epoch')
    .execute();
  const epochs = rows.map((row) => ({
    epoch: row.epoch,
    lowCounted: row.low_counted,
    highCounted: row.high_counted,
    variance: row.variance,
    tables:
      row.tables === null
        ? null
        : (JSON.parse(row.tables) as { mask: number; num: string; den: string }[]).map(({ mask, num, den }) => ({
            mask,
            variance: { num: BigInt(num), den: BigInt(den) },
          })),
  }));
  // Of a tree pair, only its latest tree epoch is read: it stands for every one before it.
  let lastTree = -1;
  epochs.forEach((epoch, index) => (lastTree = epoch.variance === null ? index : lastTree));
  return lastTree === -1 ? epochs : epochs.slice(lastTree);
}

/** Writes an epoch unless one of that number is there already; whether it went in. */
async function insertEpoch(db: Db, low: number, high: number, epoch: RelateEpoch): Promise<boolean> {
  const result = await db
    .insertInto('relate_releases')
    .values({
      low_id: low,
      high_id: high,
      epoch: epoch.epoch,
      low_counted: epoch.lowCounted,
      high_counted: epoch.highCounted,
      variance: epoch.variance,
      tables:
        epoch.tables &&
        JSON.stringify(
          epoch.tables.map(({ mask, variance }) => ({ mask, num: String(variance.num), den: String(variance.den) })),
        ),
    })
    .onConflict((conflict) => conflict.columns(['low_id', 'high_id', 'epoch']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Spends `units` of both questions' relate budgets, or throws when either has too few left. */
async function spend(trx: Db, low: number, high: number, units: number): Promise<void> {
  await trx
    .insertInto('relate_budgets')
    .values([
      { question_id: low, pairs: 0 },
      { question_id: high, pairs: 0 },
    ])
    .onConflict((conflict) => conflict.column('question_id').doNothing())
    .execute();
  // Each row is locked as it is updated (PostgreSQL), so two pairs opened at once cannot both take a question's last
  // units.
  const spent = await trx
    .updateTable('relate_budgets')
    .set((eb) => ({ pairs: eb('pairs', '+', units) }))
    .where('question_id', 'in', [low, high])
    .where('pairs', '<=', RELATE_UNITS - units)
    .executeTakeFirst();
  if (Number(spent.numUpdatedRows) < 2) throw new BudgetSpentError();
}

/**
 * Writes `epoch` and, when it is the first to spend (a pair opened, or a tree pair moved on), its budget; false when a
 * question has too little left.
 */
async function release(db: Db, low: number, high: number, epoch: RelateEpoch, units: number): Promise<boolean> {
  try {
    await db.transaction().execute(async (trx) => {
      await lockForRelease(trx, [low, high]);
      // Written by another instance meanwhile: nothing to spend.
      if ((await insertEpoch(trx, low, high, epoch)) && units > 0) await spend(trx, low, high, units);
    });
    return true;
  } catch (error) {
    if (error instanceof BudgetSpentError) return false;
    throw error;
  }
}

/** Masks of a pair's tables: the lower question's answer, and the other's. */
const LOW = 1;
const HIGH = 2;

/**
 * The tables of the pair's factorized stream, each with its releases' noise variance: the
 * allocation for showing the voters of `second`'s choices (of the other question's when `second`
 * is not multiple choice), in the pair's order. It favours relating the pair that way round: for
 * two yes-or-no questions the other way round reads a choice's count with a variance per epoch of
 * 99.9 where the full table alone would give 64 (relate-design.ts).
 */
async function streamTables(db: Db, low: number, high: number, second: number): Promise<Allocation[]> {
  const rows = await db
    .selectFrom('questions')
    .select(['id', 'type', 'choice_labels', 'range_min', 'range_max'])
    .where('id', 'in', [low, high])
    .execute();
  const kindOf = (id: number) => {
    const row = rows.find((question) => question.id === id);
    if (!row) throw new Error(`Question ${id} of the pair ${low}:${high} is gone`);
    return questionKind(row);
  };
  const other = second === low ? high : low;
  const [firstId, secondId] = kindOf(second).type === 'MC' ? [other, second] : [second, other];
  const [firstBit, secondBit] = secondId === high ? [LOW, HIGH] : [HIGH, LOW];
  return relateAllocation(bucketsOf(kindOf(firstId)).count, bucketsOf(kindOf(secondId)).count).map(
    ({ mask, variance }) => ({
      mask: (mask & FIRST ? firstBit : 0) | (mask & SECOND ? secondBit : 0),
      variance: streamVariance(variance),
    }),
  );
}

/** An epoch of the stream measuring `tables`. */
function streamEpoch(epoch: number, reach: Reach, tables: Allocation[]): RelateEpoch {
  const full = tables.find(({ mask }) => mask === (LOW | HIGH));
  if (!full) throw new Error('A relate stream measures the full table');
  return {
    epoch,
    lowCounted: reach.low,
    highCounted: reach.high,
    variance: Math.ceil(asNumber(full.variance)),
    tables,
  };
}

/**
 * The pair's epochs, opening it if need be to show the voters of `second`'s choices: null when it
 * was never opened and a question has spent its budget.
 */
export async function openPairIfNew(db: Db, low: number, high: number, second: number): Promise<RelateEpoch[] | null> {
  const epochs = await epochsOf(db, low, high);
  if (epochs.length > 0) return epochs;
  const opening = streamEpoch(0, { low: 0, high: 0 }, await streamTables(db, low, high, second));
  if (!(await release(db, low, high, opening, RELATE_PAIR_UNITS))) return null;
  return epochsOf(db, low, high);
}

/**
 * Releases the pair's next epoch, reaching `reach`, after `latest`: of the stream `latest` is in,
 * or of a stream that starts, for showing the voters of `second`'s choices. The epochs as they
 * then are, or null when a tree pair cannot move on because a question has spent its budget.
 */
export async function releaseNextEpoch(
  db: Db,
  low: number,
  high: number,
  latest: RelateEpoch,
  reach: Reach,
  second: number,
): Promise<RelateEpoch[] | null> {
  const tables = latest.tables ?? (await streamTables(db, low, high, second));
  const units = latest.variance === null ? RELATE_PAIR_UNITS - LEGACY.relatePairUnits : 0;
  if (!(await release(db, low, high, streamEpoch(latest.epoch + 1, reach, tables), units))) return null;
  return epochsOf(db, low, high);
}
