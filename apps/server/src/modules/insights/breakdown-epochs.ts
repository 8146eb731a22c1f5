import type { Db } from '../../db/index.js';
import type { Allocation } from '../../private-release/allocation.js';
import { prefixSize } from '../../private-release/binary-tree.js';
import { ANSWER, BAND, breakdownAllocation, COUNTRY, GENDER } from '../../private-release/breakdown-design.js';
import { LEGACY } from '../../private-release/budget.js';
import { streamVariance } from '../../private-release/factorization.js';
import { releasePointsBetween } from '../../private-release/schedule.js';
import { lockForRelease } from './kept-votes.js';

/**
 * The epochs of a question's breakdown release, kept in `breakdown_epochs` (docs/insights.md,
 * Privacy). Each counts the votes after the one before it up to its release point, with the
 * tables the allocation gives for the countries with voters by then; the rows are written with
 * "insert unless there", so instances that release an epoch at once agree on the first write.
 * Epochs released now are a factorized stream, decoded together; those released before it (the
 * tree's epoch 0, and epochs released alone) are read alone, as they were released.
 */
export interface BreakdownEpoch {
  epoch: number;
  counted: number;
  countries: number[];
  tables: Allocation[];
  /** The epoch standing for what the binary-tree release had counted: its noise is that release's. */
  legacy: boolean;
  /** An epoch of the factorized stream (private-release/factorization.ts): its tables' variances are the stream's. */
  factorized: boolean;
}

async function readEpochs(db: Db, questionId: number): Promise<BreakdownEpoch[]> {
  const rows = await db
    .selectFrom('breakdown_epochs')
    .selectAll()
    .where('question_id', '=', questionId)
    .orderBy('epoch')
    .execute();
  return rows.map((row) => ({
    epoch: row.epoch,
    counted: row.counted,
    countries: JSON.parse(row.countries) as number[],
    tables: (JSON.parse(row.tables) as { mask: number; num: string; den: string }[]).map(({ mask, num, den }) => ({
      mask,
      variance: { num: BigInt(num), den: BigInt(den) },
    })),
    legacy: row.legacy === 1,
    factorized: row.factorized === 1,
  }));
}

/** The countries with voters among the question's votes up to each seq given: public, like every voter's country. */
async function countriesUpTo(db: Db, questionId: number, seqs: number[]): Promise<number[][]> {
  const firsts = await db
    .selectFrom('votes')
    .select(['country_id', (eb) => eb.fn.min<number>('seq').as('first')])
    .where('question_id', '=', questionId)
    .where('seq', '<=', Math.max(...seqs))
    .groupBy('country_id')
    .execute();
  return seqs.map((seq) =>
    firsts
      .filter((row) => Number(row.first) <= seq)
      .map((row) => row.country_id)
      .sort((a, b) => a - b),
  );
}

/**
 * A question released by the binary tree before keeps what it released: its count up to the
 * tree's epoch at `seq` (at or past what anyone was shown, so within the tree's budget) becomes
 * epoch 0, measured by the tree's two tables (answer × gender × band × country, and the same over
 * every country), and only later votes go into the epochs released now.
 */
async function legacyEpoch(db: Db, questionId: number, seq: number): Promise<BreakdownEpoch | null> {
  const drawn = await db
    .selectFrom('release_noise')
    .select('cell')
    .where('question_id', '=', questionId)
    .where('other_id', '=', 0)
    .limit(1)
    .executeTakeFirst();
  if (!drawn) return null;
  const index = LEGACY.releases.index(seq);
  const counted = LEGACY.releases.point(index);
  const variance = { num: BigInt(prefixSize(index) * LEGACY.breakdownVariance), den: 1n };
  const [countries] = await countriesUpTo(db, questionId, [counted]);
  return {
    epoch: 0,
    counted,
    countries,
    tables: [ANSWER | GENDER | BAND | COUNTRY, ANSWER | GENDER | BAND].map((mask) => ({ mask, variance })),
    legacy: true,
    factorized: false,
  };
}

async function insertEpochs(db: Db, questionId: number, epochs: BreakdownEpoch[]): Promise<void> {
  if (epochs.length === 0) return;
  await db.transaction().execute(async (trx) => {
    await lockForRelease(trx, [questionId]);
    await trx
      .insertInto('breakdown_epochs')
      .values(
        epochs.map((epoch) => ({
          question_id: questionId,
          epoch: epoch.epoch,
          counted: epoch.counted,
          countries: JSON.stringify(epoch.countries),
          tables: JSON.stringify(
            epoch.tables.map(({ mask, variance }) => ({ mask, num: String(variance.num), den: String(variance.den) })),
          ),
          legacy: epoch.legacy ? 1 : 0,
          factorized: epoch.factorized ? 1 : 0,
        })),
      )
      .onConflict((conflict) => conflict.columns(['question_id', 'epoch']).doNothing())
      .execute();
  });
}

/**
 * Releases the epochs of the question due by `seq` (its last vote's place), writing those not
 * yet written, and returns every epoch released, up to the last release point at or below it.
 */
export async function releaseDueEpochs(
  db: Db,
  questionId: number,
  answers: number,
  multipleChoice: boolean,
  seq: number,
): Promise<BreakdownEpoch[]> {
  let epochs = await readEpochs(db, questionId);
  if (epochs.length === 0) {
    const legacy = await legacyEpoch(db, questionId, seq);
    if (legacy) {
      await insertEpochs(db, questionId, [legacy]);
      epochs = await readEpochs(db, questionId);
    }
  }
  const last = epochs.at(-1);
  const points = releasePointsBetween(last?.counted ?? 0, seq);
  if (points.length === 0) return epochs;
  const domains = await countriesUpTo(db, questionId, points);
  const first = (last?.epoch ?? 0) + 1;
  await insertEpochs(
    db,
    questionId,
    points.map((counted, index) => ({
      epoch: first + index,
      counted,
      countries: domains[index],
      tables: breakdownAllocation(answers, domains[index].length, multipleChoice).map(({ mask, variance }) => ({
        mask,
        variance: streamVariance(variance),
      })),
      legacy: false,
      factorized: true,
    })),
  );
  return readEpochs(db, questionId);
}
