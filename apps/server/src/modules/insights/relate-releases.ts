import type { Db } from '../../db/index.js';
import { lockForRelease } from './kept-votes.js';
import { LEGACY, RELATE_PAIR_UNITS, RELATE_UNITS, RELATE_VARIANCE } from '../../private-release/budget.js';

/**
 * The epochs of pairs' relate releases, kept in `relate_releases`. An epoch of a pair counts the
 * people among the first `lowCounted` voters of one question and the first `highCounted` of the
 * other whom the epoch before did not; each epoch reaches further, so each person's pair of
 * answers falls in exactly one. Epoch 0 of a pair released now counts nobody: it marks the pair
 * open, its budget spent. A pair released by the binary tree before (its epochs have no
 * `variance`) keeps its latest epoch as it was, and later epochs count only the people after it.
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
  /** The noise variance of each cell of the epoch's table; null for the tree's epoch. */
  variance: number | null;
}

export interface Reach {
  low: number;
  high: number;
}

class BudgetSpentError extends Error {}

export async function epochsOf(db: Db, low: number, high: number): Promise<RelateEpoch[]> {
  const rows = await db
    .selectFrom('relate_releases')
    .select(['epoch', 'low_counted', 'high_counted', 'variance'])
    .where('low_id', '=', low)
    .where('high_id', '=', high)
    .orderBy('epoch')
    .execute();
  const epochs = rows.map((row) => ({
    epoch: row.epoch,
    lowCounted: row.low_counted,
    highCounted: row.high_counted,
    variance: row.variance,
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

/** The pair's epochs, opening it if need be: null when it was never opened and a question has spent its budget. */
export async function openedEpochs(db: Db, low: number, high: number): Promise<RelateEpoch[] | null> {
  const epochs = await epochsOf(db, low, high);
  if (epochs.length > 0) return epochs;
  if (
    !(await release(
      db,
      low,
      high,
      { epoch: 0, lowCounted: 0, highCounted: 0, variance: RELATE_VARIANCE },
      RELATE_PAIR_UNITS,
    ))
  )
    return null;
  return epochsOf(db, low, high);
}

/**
 * Releases the pair's next epoch, reaching `reach`, after `latest`; the epochs as they then are,
 * or null when a tree pair cannot move on because a question has spent its budget.
 */
export async function releaseNext(
  db: Db,
  low: number,
  high: number,
  latest: RelateEpoch,
  reach: Reach,
): Promise<RelateEpoch[] | null> {
  const next: RelateEpoch = {
    epoch: latest.epoch + 1,
    lowCounted: reach.low,
    highCounted: reach.high,
    variance: RELATE_VARIANCE,
  };
  const units = latest.variance === null ? RELATE_PAIR_UNITS - LEGACY.relatePairUnits : 0;
  if (!(await release(db, low, high, next, units))) return null;
  return epochsOf(db, low, high);
}
