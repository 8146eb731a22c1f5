import type { Db } from '../../db/index.js';
import { asNumber, type Allocation } from '../../private-release/allocation.js';
import { prefixSize } from '../../private-release/binary-tree.js';
import {
  ANSWER,
  BAND,
  BANDS,
  breakdownAllocation,
  breakdownSizes,
  COUNTRY,
  GENDER,
  GENDERS,
  publicMarginals,
} from '../../private-release/breakdown-design.js';
import { LEGACY } from '../../private-release/budget.js';
import { runningNoise, runningVariance, streamVariance } from '../../private-release/factorization.js';
import { countVariance, estimate, precisions, type Measurement } from '../../private-release/marginals.js';
import { releasePointsBetween } from '../../private-release/schedule.js';
import { lockForRelease } from './kept-votes.js';
import type { NoiseStore } from './noise-store.js';
import type { QuestionKind } from '../../views/results.js';

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

/** Where a table's cell is among an epoch's cells: the tables one after another. */
function tableOffsets(tables: readonly Allocation[], sizes: readonly number[]): number[] {
  const offsets = [0];
  for (const { mask } of tables) offsets.push(offsets[offsets.length - 1] + cellsIn(sizes, mask));
  return offsets;
}

function cellsIn(sizes: readonly number[], mask: number): number {
  return sizes.reduce((cells, size, i) => (mask & (1 << i) ? cells * size : cells), 1);
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

/** The question's epochs, released up to the last release point at or below `seq` (its last vote's place). */
export async function breakdownEpochs(
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

/** What one part of the estimate adds to its noise, and how to tell the variance of any group's count in it. */
interface NoisePart {
  sizes: number[];
  lambda: Float64Array;
  /** The marginals the estimate holds exact (exactMarginalsOf). */
  exactMasks: readonly number[];
  countryIndex: Map<number, number>;
}

/**
 * What the estimate holds exact: only what is public (publicMarginals): the voters by age band ×
 * country, and a rating's or number's counts per value. A multiple-choice question's result
 * shows whole percentages, never a choice's count: held to its exact counts, the released groups
 * would add up to them and give them away.
 */
export function exactMarginalsOf(kind: QuestionKind): number[] {
  return publicMarginals(kind.type === 'MC');
}

/**
 * The noise in the release's estimate of a question's votes up to its latest epoch, by the cells
 * breakdown adds up: per country with voters, and over every country, each a block of gender ×
 * age band × answer bucket. The estimate is the least-squares fit of the noisy tables held to
 * what is public of the votes (exactMarginalsOf; private-release/marginals.ts): of each epoch
 * released alone, and of the running count the factorized stream's epochs decode to. A fit is
 * linear and gives back exact tables exactly, so it is the exact counts plus the fit of the noise
 * alone.
 */
export interface ReleasedNoise {
  byCountry: Map<number, Float64Array>;
  everywhere: Float64Array;
  parts: NoisePart[];
}

/** A block's cell: gender, age band and answer bucket. */
export function blockIndex(buckets: number, gender: number, band: number, bucket: number): number {
  return (gender * BANDS + band) * buckets + bucket;
}

function emptyNoise(buckets: number): ReleasedNoise {
  return { byCountry: new Map(), everywhere: new Float64Array(GENDERS * BANDS * buckets), parts: [] };
}

/** The noise of an epoch's tables, drawn once and kept, as each table's measurement. */
async function epochMeasurements(
  store: NoiseStore,
  questionId: number,
  buckets: number,
  epoch: BreakdownEpoch,
): Promise<Measurement[]> {
  const sizes = breakdownSizes(buckets, epoch.countries.length);
  if (epoch.legacy) return legacyMeasurements(store, questionId, buckets, epoch, sizes);
  const offsets = tableOffsets(epoch.tables, sizes);
  const draws = await store.epochDraws(
    { questionId, otherId: 0, epoch: epoch.epoch },
    epoch.tables.map(({ variance }, index) => ({ cells: offsets[index + 1] - offsets[index], variance })),
  );
  return epoch.tables.map(({ mask, variance }, index) => ({
    mask,
    variance: asNumber(variance),
    values: draws.subarray(offsets[index], offsets[index + 1]),
  }));
}

/**
 * The binary tree's noise in its two tables, read (and, for blocks nobody had asked for, drawn) as that release drew
 * it.
 */
async function legacyMeasurements(
  store: NoiseStore,
  questionId: number,
  buckets: number,
  epoch: BreakdownEpoch,
  sizes: number[],
): Promise<Measurement[]> {
  const index = LEGACY.releases.index(epoch.counted);
  const blockCells = GENDERS * BANDS * buckets;
  const blockOf = (country: number | null) =>
    store.sums(
      {
        questionId,
        otherId: 0,
        firstCell: (country ?? 0) * 256,
        cells: blockCells,
        variance: LEGACY.breakdownVariance,
      },
      index,
    );
  const [everywhere, ...countries] = await Promise.all([blockOf(null), ...epoch.countries.map(blockOf)]);
  const full = new Float64Array(cellsIn(sizes, ANSWER | GENDER | BAND | COUNTRY));
  const overAll = new Float64Array(cellsIn(sizes, ANSWER | GENDER | BAND));
  for (let bucket = 0; bucket < buckets; bucket += 1) {
    for (let gender = 0; gender < GENDERS; gender += 1) {
      for (let band = 0; band < BANDS; band += 1) {
        const fromBlock = blockIndex(buckets, gender, band, bucket);
        const cell = (bucket * GENDERS + gender) * BANDS + band;
        overAll[cell] = everywhere[fromBlock];
        countries.forEach((block, country) => (full[cell * epoch.countries.length + country] = block[fromBlock]));
      }
    }
  }
  const variance = asNumber(epoch.tables[0].variance);
  return [
    { mask: ANSWER | GENDER | BAND | COUNTRY, variance, values: full },
    { mask: ANSWER | GENDER | BAND, variance, values: overAll },
  ];
}

/**
 * Where a cell of a stream's table is kept in `epoch_noise`: by the table, the cell's other
 * attributes and its country's id, so that a cell keeps its key in every epoch however many
 * countries the tables span.
 */
function streamCellKeys(sizes: readonly number[], countries: readonly number[], table: number, mask: number): number[] {
  const inner = cellsIn(sizes, mask & ~COUNTRY);
  const keys: number[] = [];
  for (let index = 0; index < inner; index += 1) {
    const base = table * 2 ** 20 + index * 2 ** 10;
    if (mask & COUNTRY) for (const country of countries) keys.push(base + country);
    else keys.push(base);
  }
  return keys;
}

/**
 * The factorized stream's measurements of the running count up to its latest epoch: each table's
 * noise decoded from every epoch's release (factorization.ts), over the countries any of them
 * spans. A country's cells in an epoch before its first voter are drawn too (its count there is
 * 0), so that every cell of a table carries noise of one variance.
 */
async function streamMeasurements(
  store: NoiseStore,
  questionId: number,
  buckets: number,
  epochs: readonly BreakdownEpoch[],
): Promise<{ countries: number[]; measurements: Measurement[] }> {
  const countries = [...new Set(epochs.flatMap((epoch) => epoch.countries))].sort((a, b) => a - b);
  const sizes = breakdownSizes(buckets, countries.length);
  const masks = epochs[0].tables.map(({ mask }) => mask);
  if (epochs.some((epoch) => epoch.tables.map(({ mask }) => mask).join() !== masks.join()))
    throw new Error(`The epochs of question ${questionId}'s stream measure different tables`);
  const keys = masks.map((mask, table) => streamCellKeys(sizes, countries, table, mask));
  const releases = await Promise.all(
    epochs.map((epoch) =>
      store.keyedDraws(
        { questionId, otherId: 0, epoch: epoch.epoch },
        epoch.tables.map(({ variance }, table) => ({ keys: keys[table], variance })),
      ),
    ),
  );
  let offset = 0;
  const measurements = masks.map((mask, table) => {
    const cells = keys[table].length;
    const start = offset;
    offset += cells;
    return {
      mask,
      values: runningNoise(
        releases.map((draws) => draws.subarray(start, start + cells)),
        cells,
      ),
      variance: runningVariance(epochs.map((epoch) => asNumber(epoch.tables[table].variance))),
    };
  });
  return { countries, measurements };
}

/** Adds the fit of one part's noise (of its tables over `countries`) to the blocks. */
function withPart(
  before: ReleasedNoise,
  buckets: number,
  exactMasks: readonly number[],
  countries: readonly number[],
  measurements: Measurement[],
): ReleasedNoise {
  const sizes = breakdownSizes(buckets, countries.length);
  const fitted = estimate(
    sizes,
    measurements,
    exactMasks.map((mask) => ({ mask, values: new Float64Array(cellsIn(sizes, mask)) })),
  );
  const byCountry = new Map([...before.byCountry].map(([country, block]) => [country, block.slice()]));
  const everywhere = before.everywhere.slice();
  countries.forEach((country, index) => {
    let block = byCountry.get(country);
    if (!block) byCountry.set(country, (block = new Float64Array(everywhere.length)));
    for (let bucket = 0; bucket < buckets; bucket += 1) {
      for (let gender = 0; gender < GENDERS; gender += 1) {
        for (let band = 0; band < BANDS; band += 1) {
          const noise = fitted[((bucket * GENDERS + gender) * BANDS + band) * countries.length + index];
          const cell = blockIndex(buckets, gender, band, bucket);
          block[cell] += noise;
          everywhere[cell] += noise;
        }
      }
    }
  });
  const part = {
    sizes,
    lambda: precisions(sizes, measurements),
    exactMasks,
    countryIndex: new Map(countries.map((country, index) => [country, index])),
  };
  return { byCountry, everywhere, parts: [...before.parts, part] };
}

/**
 * The noise of the release's estimate at the latest of `epochs`: each epoch released alone fitted
 * alone, and the factorized stream's running count fitted once. The parts' noises are
 * independent, so their variances add up.
 */
export async function releasedNoise(
  store: NoiseStore,
  questionId: number,
  buckets: number,
  exactMasks: readonly number[],
  epochs: readonly BreakdownEpoch[],
): Promise<ReleasedNoise> {
  let noise = emptyNoise(buckets);
  for (const epoch of epochs.filter(({ factorized }) => !factorized)) {
    const measurements = await epochMeasurements(store, questionId, buckets, epoch);
    noise = withPart(noise, buckets, exactMasks, epoch.countries, measurements);
  }
  const stream = epochs.filter(({ factorized }) => factorized);
  if (stream.length === 0) return noise;
  const { countries, measurements } = await streamMeasurements(store, questionId, buckets, stream);
  return withPart(noise, buckets, exactMasks, countries, measurements);
}

/**
 * Which of a group's values each attribute takes: `answers` buckets (1 for one answer's count), genders and bands, and
 * a country or every one.
 */
export interface GroupShape {
  answers: number;
  genders: number;
  bands: number;
  country: number | null;
}

/** The variance of the noise in a group's count, over every epoch. */
export function groupVariance(noise: ReleasedNoise, shape: GroupShape): number {
  let variance = 0;
  for (const { sizes, lambda, exactMasks, countryIndex } of noise.parts) {
    const countries = shape.country === null ? sizes[3] : countryIndex.has(shape.country) ? 1 : 0;
    if (countries === 0) continue;
    variance += countVariance(sizes, lambda, exactMasks, [shape.answers, shape.genders, shape.bands, countries]);
  }
  return variance;
}
