import { asNumber } from '../../private-release/allocation.js';
import { blockSize, countryCell, forEachBlockCell } from '../../private-release/breakdown-cells.js';
import {
  ANSWER,
  BAND,
  breakdownSizes,
  COUNTRY,
  GENDER,
  publicMarginals,
  type ReleasedPart,
} from '../../private-release/breakdown-design.js';
import { LEGACY } from '../../private-release/budget.js';
import { runningNoise, runningVariance } from '../../private-release/factorization.js';
import { cellsOf, estimate, precisions, type Measurement } from '../../private-release/marginals.js';
import type { BreakdownEpoch } from './breakdown-epochs.js';
import type { NoiseStore } from './noise-store.js';

/**
 * The noise in the release's estimate of a question's votes up to its latest epoch, by the cells
 * breakdown adds up: per country with voters, and over every country, each a block of gender ×
 * age band × answer bucket (private-release/breakdown-cells.ts). The estimate is the least-squares
 * fit of the noisy tables held to what is public of the votes (private-release/marginals.ts): of
 * each epoch released alone, and of the running count the factorized stream's epochs decode to. A
 * fit is linear and gives back exact tables exactly, so it is the exact counts plus the fit of the
 * noise alone. Its parts tell the variance of any group's count (groupVariance).
 */
export interface ReleasedNoise {
  byCountry: Map<number, Float64Array>;
  everywhere: Float64Array;
  parts: ReleasedPart[];
}

/** Where a table's cell is among an epoch's cells: the tables one after another. */
function tableOffsets(tables: BreakdownEpoch['tables'], sizes: readonly number[]): number[] {
  const offsets = [0];
  for (const { mask } of tables) offsets.push(offsets[offsets.length - 1] + cellsOf(sizes, mask));
  return offsets;
}

/** The noise of an epoch's tables, drawn the first time and kept, as each table's measurement. */
async function drawAndKeepEpochNoise(
  store: NoiseStore,
  questionId: number,
  buckets: number,
  epoch: BreakdownEpoch,
): Promise<Measurement[]> {
  const sizes = breakdownSizes(buckets, epoch.countries.length);
  if (epoch.legacy) return drawAndKeepLegacyNoise(store, questionId, buckets, epoch, sizes);
  const offsets = tableOffsets(epoch.tables, sizes);
  const draws = await store.drawAndKeepEpoch(
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
 * The binary tree's noise in its two tables, read (and, for blocks nobody had asked for, drawn and kept) as that
 * release drew it.
 */
async function drawAndKeepLegacyNoise(
  store: NoiseStore,
  questionId: number,
  buckets: number,
  epoch: BreakdownEpoch,
  sizes: number[],
): Promise<Measurement[]> {
  const index = LEGACY.releases.index(epoch.counted);
  const blockOf = (country: number | null) =>
    store.drawAndKeepTreeSums(
      {
        questionId,
        otherId: 0,
        firstCell: (country ?? 0) * 256,
        cells: blockSize(buckets),
        variance: LEGACY.breakdownVariance,
      },
      index,
    );
  const [everywhere, ...countries] = await Promise.all([blockOf(null), ...epoch.countries.map(blockOf)]);
  const full = new Float64Array(cellsOf(sizes, ANSWER | GENDER | BAND | COUNTRY));
  const overAll = new Float64Array(cellsOf(sizes, ANSWER | GENDER | BAND));
  forEachBlockCell(buckets, (fromBlock, cell) => {
    overAll[cell] = everywhere[fromBlock];
    countries.forEach(
      (block, country) => (full[countryCell(cell, epoch.countries.length, country)] = block[fromBlock]),
    );
  });
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
  const inner = cellsOf(sizes, mask & ~COUNTRY);
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
 * noise decoded from every epoch's release (factorization.ts), drawn the first time and kept, over
 * the countries any of them spans. A country's cells in an epoch before its first voter are drawn
 * too (its count there is 0), so that every cell of a table carries noise of one variance.
 */
async function drawAndKeepStreamNoise(
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
      store.drawAndKeepKeyed(
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

/** Adds the fit of one part's noise (of its tables over `countries`) to the blocks, in place. */
function addPart(
  noise: ReleasedNoise,
  buckets: number,
  exactMasks: readonly number[],
  countries: readonly number[],
  measurements: Measurement[],
): void {
  const sizes = breakdownSizes(buckets, countries.length);
  const fitted = estimate(
    sizes,
    measurements,
    exactMasks.map((mask) => ({ mask, values: new Float64Array(cellsOf(sizes, mask)) })),
  );
  const { byCountry, everywhere } = noise;
  countries.forEach((country, index) => {
    let block = byCountry.get(country);
    if (!block) byCountry.set(country, (block = new Float64Array(everywhere.length)));
    forEachBlockCell(buckets, (cell, tableCell) => {
      const fit = fitted[countryCell(tableCell, countries.length, index)];
      block[cell] += fit;
      everywhere[cell] += fit;
    });
  });
  noise.parts.push({
    sizes,
    lambda: precisions(sizes, measurements),
    exactMasks,
    countryIndex: new Map(countries.map((country, index) => [country, index])),
  });
}

/**
 * The noise of the release's estimate at the latest of `epochs`, its draws made the first time
 * and kept: each epoch released alone fitted alone, and the factorized stream's running count
 * fitted once. The parts' noises are independent, so their variances add up.
 *
 * The estimate holds exact only what is public (publicMarginals): the voters by age band ×
 * country, and a rating's or number's counts per value. A multiple-choice question's result shows
 * whole percentages, never a choice's count: held to its exact counts, the released groups would
 * add up to them and give them away.
 */
export async function drawAndKeepNoise(
  store: NoiseStore,
  questionId: number,
  buckets: number,
  multipleChoice: boolean,
  epochs: readonly BreakdownEpoch[],
): Promise<ReleasedNoise> {
  const exactMasks = publicMarginals(multipleChoice);
  const noise: ReleasedNoise = { byCountry: new Map(), everywhere: new Float64Array(blockSize(buckets)), parts: [] };
  for (const epoch of epochs.filter(({ factorized }) => !factorized)) {
    const measurements = await drawAndKeepEpochNoise(store, questionId, buckets, epoch);
    addPart(noise, buckets, exactMasks, epoch.countries, measurements);
  }
  const stream = epochs.filter(({ factorized }) => factorized);
  if (stream.length === 0) return noise;
  const { countries, measurements } = await drawAndKeepStreamNoise(store, questionId, buckets, stream);
  addPart(noise, buckets, exactMasks, countries, measurements);
  return noise;
}
