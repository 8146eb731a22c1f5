/**
 * `npm run insights:utility -w apps/server`: what breakdown and relate show, under the release
 * before (a binary tree over epochs 16 per doubling, two tables per question, 16 relate pairs)
 * and the release now (tables by marginals at doublings, private-release/). For questions of 34,
 * 400, 4,000 and 1,000,000 votes it prints one Markdown table: the noise's standard deviation in
 * the count of a gender, an age band, a country, a full cell (one gender, band and country) and a
 * relate choice (everyone having answered both questions), the share of one-attribute groups
 * shown and the mean absolute error of the percentages shown against the truth among all votes.
 *
 * The questions are yes-or-no, answered by a community of even genders, ages 18 to 80 and 3
 * countries (half, a quarter, a quarter); 10 countries (a third, then each about two thirds of the
 * one before) from 4,000 votes. Women answer yes 60% of the time, men 40%, and the young more than
 * the old. Noise is drawn by the release's own samplers; the shares and errors are the mean over
 * `--runs` releases (default 20; 2 at a million votes). A second table weighs the time
 * structures considered: how much each multiplies a running count's variance at 400 and at
 * 1,000,000 votes.
 */
import { parseArgs } from 'node:util';
import { prefixSize } from '../src/private-release/binary-tree.js';
import { asNumber } from '../src/private-release/allocation.js';
import {
  ANSWER,
  BANDS,
  breakdownAllocation,
  breakdownSizes,
  GENDERS,
} from '../src/private-release/breakdown-design.js';
import { LEGACY, RELATE_VARIANCE } from '../src/private-release/budget.js';
import { cryptoRandom, discreteGaussian } from '../src/private-release/discrete-noise.js';
import { countVariance, estimate, marginalOf, precisions, type Measurement } from '../src/private-release/marginals.js';
import { FIRST_RELEASE_POINT, releasePointsBetween } from '../src/private-release/schedule.js';
import { nonNegative } from '../src/modules/insights/breakdown.js';

const { values: options } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
const RUNS = Number(options.runs);
const SIZES = [34, 400, 4_000, 1_000_000];
const MIN_GROUP_SIZE = 5;
const ANSWERS = 2;
/** Ages 18 to 80 fall in bands 1 to 6 (18–24 … 65 and over): how many of the 63 ages each band holds. */
const BAND_AGES = [0, 7, 10, 10, 10, 10, 16];

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
    cells[vote] = ((answer * GENDERS + gender) * BANDS + band) * countries + country;
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
          sum += table[((answer * GENDERS + gender) * BANDS + band) * countries + country];
    return sum;
  });
}

interface Release {
  /** Each group's released counts per answer, and the sd of the noise in its count. */
  groups: { counts: number[]; countSd: number }[];
  shown(count: number, countSd: number): boolean;
}

const draw = (variance: number) =>
  discreteGaussian(cryptoRandom, { num: BigInt(Math.round(variance * 100)), den: 100n });

/**
 * The release before: two tables (every country, and each country) of noisy cells, each the sum of the tree's nodes,
 * shown from 3 sds.
 */
function treeRelease(cells: Int32Array, votes: number, countries: number): Release {
  const epoch = LEGACY.releases.index(votes);
  const counted = LEGACY.releases.point(epoch);
  const size = ANSWERS * GENDERS * BANDS * countries;
  const table = tableOf(cells, 0, counted, size);
  const variance = prefixSize(epoch) * LEGACY.breakdownVariance;
  // The table over every country is a table of its own, with noise of its own.
  const everywhere = marginalOf(breakdownSizes(ANSWERS, countries), table, ANSWER | 2 | 4).map(
    (count) => count + draw(variance),
  );
  const byCountry = table.map((count) => count + draw(variance));
  return {
    groups: groupsOf(countries).map((group) => {
      const inOneCountry = group.countries.length === 1;
      const counts = inOneCountry
        ? groupCounts(byCountry, group, countries)
        : Array.from({ length: ANSWERS }, (_, answer) => {
            let sum = 0;
            for (const gender of group.genders)
              for (const band of group.bands) sum += everywhere[(answer * GENDERS + gender) * BANDS + band];
            return sum;
          });
      const summed = group.genders.length * group.bands.length;
      return { counts: nonNegative(counts), countSd: Math.sqrt(ANSWERS * summed * variance) };
    }),
    shown: (count, countSd) => count >= MIN_GROUP_SIZE && count >= 3 * countSd,
  };
}

/** The release now: each epoch's tables, fitted by least squares to its exact answers, added up; shown from 2 sds. */
function marginalRelease(cells: Int32Array, votes: number, countries: number): Release {
  const sizes = breakdownSizes(ANSWERS, countries);
  const size = ANSWERS * GENDERS * BANDS * countries;
  const estimated = new Float64Array(size);
  const lambdas: Float64Array[] = [];
  let from = 0;
  for (const point of releasePointsBetween(0, votes)) {
    const exact = tableOf(cells, from, point, size);
    const allocation = breakdownAllocation(ANSWERS, countries);
    const measurements: Measurement[] = allocation.map(({ mask, variance }) => ({
      mask,
      variance: asNumber(variance),
      values: marginalOf(sizes, exact, mask).map((count) => count + discreteGaussian(cryptoRandom, variance)),
    }));
    const fitted = estimate(sizes, measurements, { mask: ANSWER, values: marginalOf(sizes, exact, ANSWER) });
    fitted.forEach((count, cell) => (estimated[cell] += count));
    lambdas.push(precisions(sizes, measurements));
    from = point;
  }
  return {
    groups: groupsOf(countries).map((group) => ({
      counts: nonNegative(groupCounts(estimated, group, countries)),
      countSd: Math.sqrt(
        lambdas.reduce(
          (sum, lambda) =>
            sum +
            countVariance(sizes, lambda, ANSWER, [
              ANSWERS,
              group.genders.length,
              group.bands.length,
              group.countries.length,
            ]),
          0,
        ),
      ),
    })),
    shown: (count, countSd) => count >= MIN_GROUP_SIZE && count >= 2 * countSd,
  };
}

/** The noise's sd in a count, in each release, for the table's columns. */
function noiseSds(votes: number, countries: number) {
  const treeVariance = prefixSize(LEGACY.releases.index(votes)) * LEGACY.breakdownVariance;
  const tree = {
    gender: Math.sqrt(ANSWERS * BANDS * treeVariance),
    band: Math.sqrt(ANSWERS * GENDERS * treeVariance),
    country: Math.sqrt(ANSWERS * GENDERS * BANDS * treeVariance),
    cell: Math.sqrt(ANSWERS * treeVariance),
    // A relate pair's epoch, both questions answered together: one per release point, σ² = 1,280 per node.
    relate: Math.sqrt(ANSWERS * prefixSize(LEGACY.releases.index(votes)) * LEGACY.relateVariance),
  };
  const sizes = breakdownSizes(ANSWERS, countries);
  const epochs = releasePointsBetween(0, votes).length;
  const lambda = precisions(
    sizes,
    breakdownAllocation(ANSWERS, countries).map(({ mask, variance }) => ({ mask, variance: asNumber(variance) })),
  );
  const sd = (chosen: number[]) => Math.sqrt(epochs * countVariance(sizes, lambda, ANSWER, chosen));
  const pairEpochs = votes < FIRST_RELEASE_POINT ? 0 : releasePointsBetween(0, votes).length;
  const pairLambda = precisions([ANSWERS, 2], [{ mask: 3, variance: RELATE_VARIANCE }]);
  const marginal = {
    gender: sd([ANSWERS, 1, BANDS, countries]),
    band: sd([ANSWERS, GENDERS, 1, countries]),
    country: sd([ANSWERS, GENDERS, BANDS, 1]),
    cell: sd([ANSWERS, 1, 1, 1]),
    relate: Math.sqrt(pairEpochs * countVariance([ANSWERS, 2], pairLambda, 0, [ANSWERS, 1])),
  };
  return { tree, marginal };
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
      if (!made.shown(total, countSd)) return;
      shown += 1;
      const [yes, no] = truth[index];
      error += Math.abs((100 * counts[0]) / total - (100 * yes) / (yes + no));
    });
  }
  return { shown: shown / groups, error: shown > 0 ? error / shown : null };
}

/**
 * The time structures weighed for the release, by how much each multiplies the variance of a
 * running count over one release of the same table with the whole budget, at `votes` votes.
 */
function timeMultipliers(votes: number) {
  const fine = LEGACY.releases;
  const fineEpochs = fine.index(2 ** 31 - 1);
  const levels = Math.floor(Math.log2(fineEpochs)) + 1;
  const doublings = releasePointsBetween(0, 2 ** 31 - 1).length;
  const t = releasePointsBetween(0, votes).length;
  // Square-root factorization of the running sum (Fichtenberger, Henzinger and Upadhyay): r_k = C(2k, k) / 4^k.
  const r = [1];
  for (let k = 1; k < doublings; k += 1) r.push((r[k - 1] * (2 * k - 1)) / (2 * k));
  const squares = (count: number) => r.slice(0, count).reduce((sum, value) => sum + value * value, 0);
  return {
    tree: levels * prefixSize(fine.index(votes)),
    honaker: levels * honakerPrefix(fineEpochs, fine.index(votes)),
    factorization: squares(t) * squares(doublings),
    doublings: t,
    // Points at 32·√2^k: as many as k ≤ 2·log₂(votes / 32).
    twicePerDoubling: votes < FIRST_RELEASE_POINT ? 0 : Math.floor(2 * Math.log2(votes / FIRST_RELEASE_POINT)) + 1,
  };
}

/**
 * The variance of the best linear unbiased estimate of the sum of the first `t` leaves of a
 * binary tree over `leaves` leaves whose every node is measured with unit variance (Honaker,
 * "Efficient use of differentially private binary trees", 2015): qᵀ (AᵀA)⁻¹ q, A the nodes' incidence.
 */
function honakerPrefix(leaves: number, t: number): number {
  const size = leaves;
  const information = Array.from({ length: size }, () => new Float64Array(size));
  for (let width = 1; width <= size; width *= 2) {
    for (let start = 0; start + width <= size; start += width) {
      for (let i = start; i < start + width; i += 1)
        for (let j = start; j < start + width; j += 1) information[i][j] += 1;
    }
  }
  // Cholesky, then solve for (AᵀA)⁻¹ q.
  const lower = information.map((row) => row.slice());
  for (let j = 0; j < size; j += 1) {
    for (let k = 0; k < j; k += 1) lower[j][j] -= lower[j][k] ** 2;
    lower[j][j] = Math.sqrt(lower[j][j]);
    for (let i = j + 1; i < size; i += 1) {
      for (let k = 0; k < j; k += 1) lower[i][j] -= lower[i][k] * lower[j][k];
      lower[i][j] /= lower[j][j];
    }
  }
  const y = new Float64Array(size);
  for (let i = 0; i < size; i += 1) {
    let sum = i < t ? 1 : 0;
    for (let k = 0; k < i; k += 1) sum -= lower[i][k] * y[k];
    y[i] = sum / lower[i][i];
  }
  return y.reduce((sum, value) => sum + value * value, 0);
}

const format = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const lines = [
  '| votes | release | gender | age band | country | full cell | relate choice | groups shown | error of shown % |',
  '| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
];
for (const votes of SIZES) {
  const countries = countryShares(votes).length;
  const sds = noiseSds(votes, countries);
  const runs = votes >= 1_000_000 ? Math.min(RUNS, 2) : RUNS;
  for (const [name, release, sd] of [
    ['before (tree)', treeRelease, sds.tree],
    ['now (marginals)', marginalRelease, sds.marginal],
  ] as const) {
    const { shown, error } = shownAndError(votes, countries, release, runs);
    lines.push(
      `| ${votes.toLocaleString('en')} (${countries} countries) | ${name} | ${format(sd.gender)} | ${format(sd.band)} | ${format(sd.country)} | ${format(sd.cell)} | ${format(sd.relate)} | ${Math.round(shown * 100)}% | ${error === null ? '–' : `${error.toFixed(1)} points`} |`,
    );
  }
}
console.log(lines.join('\n'));
console.log(
  '\n| votes | binary tree, 16 per doubling | the same, Honaker’s estimate | square-root factorization, epochs at doublings | disjoint epochs at doublings | disjoint epochs, two per doubling |',
);
console.log('| ---: | ---: | ---: | ---: | ---: | ---: |');
for (const votes of [400, 1_000_000]) {
  const m = timeMultipliers(votes);
  console.log(
    `| ${votes.toLocaleString('en')} | × ${format(m.tree)} | × ${format(m.honaker)} | × ${format(m.factorization)} | × ${format(m.doublings)} | × ${format(m.twicePerDoubling)} |`,
  );
}
