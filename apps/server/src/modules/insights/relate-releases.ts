import { RELATE_PAIRS_PER_QUESTION } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import { RELATE_EPOCHS } from './privacy-budget.js';

/**
 * The epochs of pairs' relate releases, kept in `relate_releases`. An epoch of a pair counts the
 * people among the first `lowCounted` voters of one question and the first `highCounted` of the
 * other; each epoch reaches further, so each person's pair of answers falls in exactly one. A pair
 * is opened (epoch 1) only while neither question has been related in RELATE_PAIRS_PER_QUESTION
 * pairs: each pair a vote takes part in spends part of its privacy budget (privacy-budget.ts).
 * Rows are written with "insert unless there", so instances that open or move a pair at once
 * agree on what the first of them wrote.
 */
export interface RelateEpoch {
  epoch: number;
  lowCounted: number;
  highCounted: number;
}

export interface Reach {
  low: number;
  high: number;
}

class BudgetSpentError extends Error {}

async function latestOf(db: Db, low: number, high: number): Promise<RelateEpoch | null> {
  const row = await db
    .selectFrom('relate_releases')
    .select(['epoch', 'low_counted', 'high_counted'])
    .where('low_id', '=', low)
    .where('high_id', '=', high)
    .orderBy('epoch', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? { epoch: row.epoch, lowCounted: row.low_counted, highCounted: row.high_counted } : null;
}

/** Writes an epoch unless one of that number is there already; whether it went in. */
async function insertEpoch(db: Db, low: number, high: number, epoch: RelateEpoch): Promise<boolean> {
  const result = await db
    .insertInto('relate_releases')
    .values({ low_id: low, high_id: high, epoch: epoch.epoch, low_counted: epoch.lowCounted, high_counted: epoch.highCounted })
    .onConflict((conflict) => conflict.columns(['low_id', 'high_id', 'epoch']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) > 0;
}

/** Opens a pair at `reach`, spending a pair of each question's budget; false when either has none left. */
async function open(db: Db, low: number, high: number, reach: Reach): Promise<boolean> {
  try {
    await db.transaction().execute(async (trx) => {
      // Opened by another instance meanwhile: nothing to spend.
      if (!(await insertEpoch(trx, low, high, { epoch: 1, lowCounted: reach.low, highCounted: reach.high }))) return;
      await trx
        .insertInto('relate_budgets')
        .values([
          { question_id: low, pairs: 0 },
          { question_id: high, pairs: 0 },
        ])
        .onConflict((conflict) => conflict.column('question_id').doNothing())
        .execute();
      // Each row is locked as it is updated (PostgreSQL), so two pairs opened at once cannot both take a question's last place.
      const spent = await trx
        .updateTable('relate_budgets')
        .set((eb) => ({ pairs: eb('pairs', '+', 1) }))
        .where('question_id', 'in', [low, high])
        .where('pairs', '<', RELATE_PAIRS_PER_QUESTION)
        .executeTakeFirst();
      if (Number(spent.numUpdatedRows) < 2) throw new BudgetSpentError();
    });
    return true;
  } catch (error) {
    if (error instanceof BudgetSpentError) return false;
    throw error;
  }
}

/**
 * The pair's latest epoch, moved on to count at least `reach` (the last release point of each
 * question's votes), opening the pair if need be: null when it was never opened and cannot be.
 * `known` is the latest epoch this instance has seen, if any.
 */
export async function latestEpoch(db: Db, low: number, high: number, reach: Reach, known?: RelateEpoch): Promise<RelateEpoch | null> {
  let latest: RelateEpoch | null = known ?? (await latestOf(db, low, high));
  if (!latest) {
    if (!(await open(db, low, high, reach))) return null;
    latest = (await latestOf(db, low, high))!;
  }
  while (latest.epoch < RELATE_EPOCHS && (latest.lowCounted < reach.low || latest.highCounted < reach.high)) {
    const next: RelateEpoch = { epoch: latest.epoch + 1, lowCounted: Math.max(latest.lowCounted, reach.low), highCounted: Math.max(latest.highCounted, reach.high) };
    // Another instance moved the pair on first: take its epoch, and move on from there if it counts less.
    latest = (await insertEpoch(db, low, high, next)) ? next : (await latestOf(db, low, high))!;
  }
  return latest;
}
