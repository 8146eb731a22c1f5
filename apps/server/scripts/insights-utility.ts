/**
 * `npm run insights:utility -w apps/server`: what breakdown and relate show, under the release
 * before (disjoint epochs at doublings, seven tables each, voters by band and by country among
 * them) and the release now (a factorized stream, two release points per doubling, voters by band
 * × country held exact as the public facts they are; private-release/). For questions of 34,
 * 400, 4,000 and 1,000,000 votes it prints one Markdown table: the noise's standard deviation in
 * the count of voters of a gender, an age band, a country, a full cell (one gender, band and
 * country) and a relate choice (everyone having answered both questions), the votes counted, the
 * share of one-attribute groups shown and the mean absolute error of the percentages shown
 * against the truth among all votes.
 *
 * The questions are yes-or-no, answered by a community of even genders, ages 18 to 80 and 3
 * countries (half, a quarter, a quarter); 10 countries (a third, then each about two thirds of the
 * one before) from 4,000 votes. Women answer yes 60% of the time, men 40%, and the young more than
 * the old. Noise is drawn by the release's own samplers; the shares and errors are the mean over
 * `--runs` releases (default 20; 2 at a million votes). Two more tables weigh the choices the
 * release made: release points per doubling against noise, and the factor's exponent.
 */
import { parseArgs } from 'node:util';
import { asNumber, optimalAllocation, type Allocation } from '../src/private-release/allocation.js';
import {
  ANSWER,
  BAND,
  breakdownAllocation,
  breakdownSizes,
  COUNTRY,
  GENDER,
  publicMarginals,
} from '../src/private-release/breakdown-design.js';
import { AGE_BANDS, countryCell, GENDERS as GENDER_CODES, tableCell } from '../src/private-release/breakdown-cells.js';
import { BREAKDOWN_RHO, RELATE_VARIANCE } from '../src/private-release/budget.js';
import { cryptoRandom, discreteGaussian } from '../src/private-release/discrete-noise.js';
import {
  EXPONENT,
  quantizedFactor,
  runningNoise,
  runningVariance,
  streamVariance,
  varianceFactor,
  varianceFactorOf,
} from '../src/private-release/factorization.js';
import { countVariance, estimate, marginalOf, precisions, type Measurement } from '../src/private-release/marginals.js';
import { relateAllocation } from '../src/private-release/relate-design.js';
import { POINTS_PER_DOUBLING, releasePointsBetween } from '../src/private-release/schedule.js';
import { nonNegative } from '../src/modules/insights/released-groups.js';

const { values: options } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
const RUNS = Number(options.runs);
const SIZES = [34, 400, 4_000, 1_000_000];
const MIN_GROUP_SIZE = 5;
const ANSWERS = 2;
/** Ages 18 to 80 fall in bands 1 to 6 (18–24 … 65 and over): how many of the 63 ages each band holds. */
const BAND_AGES = [0, 7, 10, 10, 10, 10, 16];
const GENDERS = GENDER_CODES.length;
const BANDS = AGE_BANDS.length;

function countryShares(votes: number): number[] {
  if (votes < 4_000) return [0.5, 0.25, 0.25];
  const weights = Array.from({ length: 10 }, (_, index) => (2 / 3) ** index);
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((weight) => weight / total);
}

/** A small seeded generator (mulberry32), so every run of the report draws the same community. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

function pick(shares: number[], random: () => number): number {
  let left = random();
  for (const [index, share] of shares.entries()) if ((left -= share) < 0) return index;
  return shares.length - 1;
}

/** Each vote's cell in the table of answer × gender × band × country, in the order cast. */
function community(votes: number, countries: number, random: () => number): Int32Array {
  const shares = countryShares(votes);
  const cells = new Int32Array(votes);
  for (let vote = 0; vote < votes; vote += 1) {
    const gender = random() < 0.5 ? 0 : 1;
    const band = pick(
      BAND_AGES.map((ages) => ages / 63),
      random,
    );
    const country = pick(shares, random);
    const yes = (gender === 0 ? 0.6 : 0.4) + (3 - band) * 0.03;
    const answer = random() < yes ? 0 : 1;
    cells[vote] = countryCell(tableCell(answer, gender, band), countries, country);
  }
  return cells;
}

function tableOf(cells: Int32Array, from: number, to: number, size: number): Float64Array {
  const table = new Float64Array(size);
  for (let vote = from; vote < to; vote += 1) table[cells[vote]] += 1;
  return table;
}

/** A one-attribute group: which genders, bands and countries it takes. */
interface Group {
  genders: number[];
  bands: number[];
  countries: number[];
}

function groupsOf(countries: number): Group[] {
  const all = {
    genders: [0, 1],
    bands: [0, 1, 2, 3, 4, 5, 6],
    countries: Array.from({ length: countries }, (_, index) => index),
  };
  return [
    ...[0, 1].map((gender) => ({ ...all, genders: [gender] })),
    ...[1, 2, 3, 4, 5, 6].map((band) => ({ ...all, bands: [band] })),
    ...all.countries.map((country) => ({ ...all, countries: [country] })),
  ];
}

/** A group's count of each answer in a table of answer × gender × band × country. */
function groupCounts(table: ArrayLike<number>, group: Group, countries: number): number[] {
  return Array.from({ length: ANSWERS }, (_, answer) => {
    let sum = 0;
    for (const gender of group.genders)
      for (const band of group.bands)
        for (const country of group.countries)
          sum += table[countryCell(tableCell(answer, gender, band), countries, country)];
    return sum;
  });
}

interface Release {
  /** Each group's released counts per answer, and the sd of the noise in its count. */
  groups: { counts: number[]; countSd: number }[];
  counted: number;
}

/**
 * The release before this one: epochs at doublings, each with its seven tables (voters by gender,
 * band and country, each by answer, and the full table) split by the allocation of its day, which
 * held the answers' totals exact and nothing else; a multiple-choice question's estimate held its
 * number of votes.
 */
const BEFORE = {
  candidates: [
    GENDER,
    BAND,
    COUNTRY,
    ANSWER | GENDER,
    ANSWER | BAND,
    ANSWER | COUNTRY,
    ANSWER | GENDER | BAND | COUNTRY,
  ],
  workload: [
    { mask: GENDER, weight: 1 },
    { mask: BAND, weight: 1 },
    { mask: COUNTRY, weight: 1 },
    { mask: ANSWER | GENDER, weight: 1 },
    { mask: ANSWER | BAND, weight: 1 },
    { mask: ANSWER | COUNTRY, weight: 1 },
    { mask: ANSWER | GENDER | BAND, weight: 1 / 4 },
    { mask: ANSWER | GENDER | COUNTRY, weight: 1 / 4 },
    { mask: ANSWER | BAND | COUNTRY, weight: 1 / 4 },
    { mask: ANSWER | GENDER | BAND | COUNTRY, weight: 1 / 4 },
  ],
  exact: [0],
  allocation: (countries: number) =>
    optimalAllocation(breakdownSizes(ANSWERS, countries), BEFORE.candidates, BEFORE.workload, [ANSWER], BREAKDOWN_RHO),
  points: (votes: number) => releasePointsBetween(0, votes, 1),
};

const NOW = {
  exact: publicMarginals(true),
  allocation: (countries: number) => breakdownAllocation(ANSWERS, countries, true),
  points: (votes: number) => releasePointsBetween(0, votes),
};

const noisy = (values: Float64Array, variance: Allocation['variance']) =>
  values.map((count) => count + discreteGaussian(cryptoRandom, variance));

function withCounts(
  estimated: Float64Array,
  lambda: Float64Array,
  exact: readonly number[],
  countries: number,
): Release['groups'] {
  const sizes = breakdownSizes(ANSWERS, countries);
  return groupsOf(countries).map((group) => ({
    counts: nonNegative(groupCounts(estimated, group, countries)),
    countSd: Math.sqrt(
      countVariance(sizes, lambda, exact, [ANSWERS, group.genders.length, group.bands.length, group.countries.length]),
    ),
  }));
}

/** The release before: each epoch's tables fitted alone to its number of votes, the fits added up. */
function disjointRelease(cells: Int32Array, votes: number, countries: number): Release {
  const sizes = breakdownSizes(ANSWERS, countries);
  const size = ANSWERS * GENDERS * BANDS * countries;
  const estimated = new Float64Array(size);
  let lambda: Float64Array | null = null;
  let from = 0;
  const points = BEFORE.points(votes);
  for (const point of points) {
    const exact = tableOf(cells, from, point, size);
    const measurements: Measurement[] = BEFORE.allocation(countries).map(({ mask, variance }) => ({
      mask,
      variance: asNumber(variance),
      values: noisy(marginalOf(sizes, exact, mask), variance),
    }));
    const invariants = BEFORE.exact.map((mask) => ({ mask, values: marginalOf(sizes, exact, mask) }));
    estimate(sizes, measurements, invariants).forEach((count, cell) => (estimated[cell] += count));
    // Every epoch has the same tables: the epochs' variances add up, as their precisions' reciprocals.
    lambda = precisions(
      sizes,
      measurements.map(({ mask, variance }) => ({ mask, variance: variance * points.length })),
    );
    from = point;
  }
  if (!lambda) return { groups: [], counted: 0 };
  return { groups: withCounts(estimated, lambda, BEFORE.exact, countries), counted: from };
}

/** The release now: each epoch's tables released in the factorized stream, the running count decoded and fitted once. */
function streamRelease(cells: Int32Array, votes: number, countries: number): Release {
  const sizes = breakdownSizes(ANSWERS, countries);
  const size = ANSWERS * GENDERS * BANDS * countries;
  const points = NOW.points(votes);
  if (points.length === 0) return { groups: [], counted: 0 };
  const counted = points[points.length - 1];
  const tables = NOW.allocation(countries).map(({ mask, variance }) => ({ mask, variance: streamVariance(variance) }));
  const prefix = tableOf(cells, 0, counted, size);
  const measurements: Measurement[] = tables.map(({ mask, variance }) => {
    const cellsOfTable = marginalOf(sizes, prefix, mask).length;
    const releases = points.map(() => noisy(new Float64Array(cellsOfTable), variance));
    const noise = runningNoise(releases, cellsOfTable);
    return {
      mask,
      variance: runningVariance(points.map(() => asNumber(variance))),
      values: marginalOf(sizes, prefix, mask).map((count, cell) => count + noise[cell]),
    };
  });
  const invariants = NOW.exact.map((mask) => ({ mask, values: marginalOf(sizes, prefix, mask) }));
  const estimated = estimate(sizes, measurements, invariants);
  return { groups: withCounts(estimated, precisions(sizes, measurements), NOW.exact, countries), counted };
}

/** The sd of the noise in a group's count (`chosen` values of answer, gender, band and country) of a design after its epochs. */
function designSd(
  allocation: Allocation[],
  exact: readonly number[],
  countries: number,
  factor: number,
  chosen: number[],
): number {
  const sizes = breakdownSizes(ANSWERS, countries);
  const lambda = precisions(
    sizes,
    allocation.map(({ mask, variance }) => ({ mask, variance: asNumber(variance) * factor })),
  );
  return Math.sqrt(countVariance(sizes, lambda, exact, chosen));
}

/** The noise's sd in the table's columns, in each release. */
function noiseSds(votes: number, countries: number) {
  const columns = {
    gender: [ANSWERS, 1, BANDS, countries],
    band: [ANSWERS, GENDERS, 1, countries],
    country: [ANSWERS, GENDERS, BANDS, 1],
    cell: [ANSWERS, 1, 1, 1],
  };
  const pairEpochs = releasePointsBetween(0, votes, 1).length;
  const sds = (allocation: Allocation[], exact: readonly number[], factor: number) =>
    Object.fromEntries(
      Object.entries(columns).map(([name, chosen]) => [name, designSd(allocation, exact, countries, factor, chosen)]),
    ) as Record<keyof typeof columns, number>;
  const relate = (allocation: { mask: number; variance: number }[]) =>
    Math.sqrt(countVariance([ANSWERS, 2], precisions([ANSWERS, 2], allocation), [0], [ANSWERS, 1]));
  return {
    before: {
      ...sds(BEFORE.allocation(countries), BEFORE.exact, BEFORE.points(votes).length),
      relate: relate([{ mask: 3, variance: RELATE_VARIANCE * pairEpochs }]),
    },
    now: {
      ...sds(NOW.allocation(countries), NOW.exact, varianceFactor(NOW.points(votes).length)),
      relate: relate(
        relateAllocation(ANSWERS, 2).map(({ mask, variance }) => ({
          mask,
          variance: asNumber(variance) * varianceFactor(pairEpochs),
        })),
      ),
    },
  };
}

/**
 * The share of one-attribute groups shown, and the mean absolute error of their yes percentage against the truth among
 * every vote.
 */
function shownAndError(
  votes: number,
  countries: number,
  release: (cells: Int32Array, votes: number, countries: number) => Release,
  runs: number,
) {
  let shown = 0;
  let groups = 0;
  let error = 0;
  for (let run = 0; run < runs; run += 1) {
    const cells = community(votes, countries, seeded(run + 1));
    const truth = groupsOf(countries).map((group) =>
      groupCounts(tableOf(cells, 0, votes, ANSWERS * GENDERS * BANDS * countries), group, countries),
    );
    const made = release(cells, votes, countries);
    made.groups.forEach(({ counts, countSd }, index) => {
      groups += 1;
      const total = counts[0] + counts[1];
      // The release's rule: at least MIN_GROUP_SIZE, and at least two sds of the noise in the count.
      if (total < MIN_GROUP_SIZE || total < 2 * countSd) return;
      shown += 1;
      const [yes, no] = truth[index];
      error += Math.abs((100 * counts[0]) / total - (100 * yes) / (yes + no));
    });
  }
  return { shown: groups > 0 ? shown / groups : 0, error: shown > 0 ? error / shown : null };
}

/** The least share of the votes a release counts with `perDoubling` points per doubling, past the first. */
const leastCounted = (perDoubling: number) => perDoubling / (perDoubling + 1);

const format = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const lines = [
  '| votes | release | gender | age band | country | full cell | relate choice | votes counted | groups shown | error of shown % |',
  '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const votes of SIZES) {
  const countries = countryShares(votes).length;
  const sds = noiseSds(votes, countries);
  const runs = votes >= 1_000_000 ? Math.min(RUNS, 2) : RUNS;
  for (const [name, release, sd] of [
    ['before (disjoint epochs)', disjointRelease, sds.before],
    ['now (factorized stream)', streamRelease, sds.now],
  ] as const) {
    const { shown, error } = shownAndError(votes, countries, release, runs);
    const counted = release(community(votes, countries, seeded(1)), votes, countries).counted;
    lines.push(
      `| ${votes.toLocaleString('en')} (${countries} countries) | ${name} | ${format(sd.gender)} | ${format(sd.band)} | ${format(sd.country)} | ${format(sd.cell)} | ${format(sd.relate)} | ${counted.toLocaleString('en')} | ${Math.round(shown * 100)}% | ${error === null ? '–' : `${error.toFixed(1)} points`} |`,
    );
  }
}
console.log(lines.join('\n'));

console.log(
  '\n| release points per doubling | least share counted | epochs at 400 | gender at 400 | epochs at 1,000,000 | gender at 1,000,000 |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
for (const perDoubling of [1, 2, 4]) {
  const at = (votes: number) => {
    const epochs = releasePointsBetween(0, votes, perDoubling).length;
    const countries = countryShares(votes).length;
    const sd = designSd(NOW.allocation(countries), NOW.exact, countries, varianceFactor(epochs), [
      ANSWERS,
      1,
      BANDS,
      countries,
    ]);
    return `${epochs} | ${format(sd)}`;
  };
  const mark = perDoubling === POINTS_PER_DOUBLING ? ' (the release)' : '';
  console.log(
    `| ${perDoubling}${mark} | ${Math.round(leastCounted(perDoubling) * 100)}% | ${at(400)} | ${at(1_000_000)} |`,
  );
}

console.log('\n| factor | 1 epoch | 4 epochs | 8 epochs | 30 epochs |');
console.log('| --- | ---: | ---: | ---: | ---: |');
const factors: [string, (epochs: number) => number][] = [
  ['disjoint epochs (no factor)', (epochs) => epochs],
  [
    '(1 − z)^(−1/2), the square root, for at most 52 epochs',
    (epochs) => varianceFactorOf(quantizedFactor(0.5, 52), epochs),
  ],
  ...[0.5, 0.45, 0.4, 0.35, 0.3, 0.25].map((exponent): [string, (epochs: number) => number] => {
    const factor = quantizedFactor(exponent);
    const name = `(1 − z)^(−${exponent})${exponent === EXPONENT ? ' (the release)' : ''}`;
    return [name, (epochs) => varianceFactorOf(factor, epochs)];
  }),
];
for (const [name, multiplier] of factors)
  console.log(`| ${name} | × ${[1, 4, 8, 30].map((epochs) => format(multiplier(epochs))).join(' | × ')} |`);
