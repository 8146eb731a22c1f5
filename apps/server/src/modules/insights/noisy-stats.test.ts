import { describe, expect, it } from 'vitest';
import { asNumber } from '../../private-release/allocation.js';
import { breakdownAllocation, breakdownSizes, publicMarginals } from '../../private-release/breakdown-design.js';
import { cryptoRandom, discreteGaussian } from '../../private-release/discrete-noise.js';
import { runningNoise, runningVariance, streamVariance, varianceFactor } from '../../private-release/factorization.js';
import { countVariance, estimate, precisions } from '../../private-release/marginals.js';
import { relateAllocation, relateSizes } from '../../private-release/relate-design.js';
import { releasePointsBetween } from '../../private-release/schedule.js';
import { percentages, type QuestionKind } from '../../views/results.js';
import { associationOf, reliable } from './association.js';
import { compareWithEveryone, nonNegative, totalOf } from './released-groups.js';
import { bucketsOf } from './buckets.js';
import { linkVariance } from './relate.js';
import { benjaminiHochberg, chiSquareTest, proportionMargin } from './stats.js';
import { seededRandom } from '../../../test/insights.js';

/**
 * Noise must not pass for a finding. Tables drawn with no link at all, their counts released with
 * the noise the releases add, are tested as the app tests them: no more than about 5% may come out
 * significant at the 95% level, where the textbook tests, blind to the noise, find links in most.
 * And a real link still shows through the noise when enough people answered.
 */

const random = seededRandom(99);

/** A category drawn with the given probabilities. */
function draw(probabilities: number[]): number {
  let left = random();
  const index = probabilities.findIndex((probability) => (left -= probability) < 0);
  return index === -1 ? probabilities.length - 1 : index;
}

/** `n` people's answers to two questions, each row's answers drawn from its own probabilities. */
function table(n: number, rowShares: number[], columnsByRow: number[][]): number[][] {
  const cells = columnsByRow.map((columns) => columns.map(() => 0));
  for (let person = 0; person < n; person += 1) {
    const row = draw(rowShares);
    cells[row][draw(columnsByRow[row])] += 1;
  }
  return cells;
}

/**
 * The variance of the noise in one answer's count of a group in a breakdown release, rounded up
 * to a whole number: `chosen` values of each attribute (answer, gender, age band, country), of a
 * multiple-choice question with `answers` choices in `countries` countries, with `counted` votes
 * released.
 */
function breakdownVariance(answers: number, countries: number, chosen: number[], counted: number): number {
  const sizes = breakdownSizes(answers, countries);
  const lambda = precisions(
    sizes,
    breakdownAllocation(answers, countries, true).map(({ mask, variance }) => ({
      mask,
      variance: asNumber(variance),
    })),
  );
  const epochs = releasePointsBetween(0, counted).length;
  return Math.ceil(varianceFactor(epochs) * countVariance(sizes, lambda, publicMarginals(true), chosen));
}

/** Counts as released: each with discrete Gaussian noise of `variance`, never below 0. */
function released(cells: number[][], variance: number): number[][] {
  const noise = { num: BigInt(Math.ceil(variance)), den: 1n };
  return cells.map((row) => row.map((count) => Math.max(0, count + discreteGaussian(cryptoRandom, noise))));
}

const cellsIn = (sizes: number[], mask: number) =>
  sizes.reduce((cells, size, i) => (mask & (1 << i) ? cells * size : cells), 1);

/**
 * A relate pair's tables, each with the noise variance of one release of its stream and of its
 * running count over `epochs` epochs.
 */
function pairTables(firstAnswers: number, secondChoices: number, epochs: number) {
  return relateAllocation(firstAnswers, secondChoices).map(({ mask, variance }) => {
    const stream = streamVariance(variance);
    return { mask, stream, variance: runningVariance(new Array<number>(epochs).fill(asNumber(stream))) };
  });
}

/** The variance the test of a pair's table allows for in each cell, after `epochs` epochs of its stream. */
function pairLinkVariance(firstAnswers: number, secondChoices: number, epochs: number): number {
  const sizes = relateSizes(firstAnswers, secondChoices);
  return linkVariance({ lambdas: [precisions(sizes, pairTables(firstAnswers, secondChoices, epochs))] });
}

/**
 * A relate table as released after `epochs` epochs of its pair's stream: `cells` (rows by the
 * second question's choice, columns by the first's answer) plus each table's noise drawn epoch by
 * epoch, decoded and fitted as the release fits it, each row made whole and never negative.
 */
function relateReleased(cells: number[][], epochs: number): number[][] {
  const sizes = relateSizes(cells[0].length, cells.length);
  const measurements = pairTables(sizes[0], sizes[1], epochs).map(({ mask, stream, variance }) => {
    const count = cellsIn(sizes, mask);
    const releases = Array.from({ length: epochs }, () =>
      Array.from({ length: count }, () => discreteGaussian(cryptoRandom, stream)),
    );
    return { mask, variance, values: runningNoise(releases, count) };
  });
  const noise = estimate(sizes, measurements, [{ mask: 0, values: [0] }]);
  return cells.map((row, choice) =>
    nonNegative(row.map((count, answer) => count + noise[answer * cells.length + choice])),
  );
}

const TABLES = 400;
/** 5% of 400 is 20, with a standard deviation of 4.4: 36 would be 3.6 standard deviations too many. */
const MOST_FALSE_FINDINGS = 36;

describe('the chi-square test of noisy counts', () => {
  it('finds no more links than chance allows in tables with none, where the textbook test finds them everywhere', () => {
    const columns = [0.2, 0.3, 0.5];
    let noiseAware = 0;
    let textbook = 0;
    // 100 people, as a pair's first two epochs hold (a pair is released from 32 people who answered
    // both): expected counts of 10 to 25 beside noise of variance 236 in what each cell adds to the
    // link, which the textbook test takes for one about 84% of the time. Simulated over 20,000
    // tables, the noise-aware test finds 0.8% (the counts kept from going below 0 make it cautious)
    // and the textbook one 84%: of 400 tables, 36 false findings or more by the first (3.3
    // expected) or 200 or fewer by the second (337 expected) are far out of chance's reach.
    const variance = pairLinkVariance(3, 2, 2);
    for (let index = 0; index < TABLES; index += 1) {
      const noisy = relateReleased(table(100, [0.5, 0.5], [columns, columns]), 2);
      const noise = noisy.map((row) => row.map(() => variance));
      if ((chiSquareTest(noisy, noise)?.pValue ?? 1) < 0.05) noiseAware += 1;
      if ((chiSquareTest(noisy)?.pValue ?? 1) < 0.05) textbook += 1;
    }
    expect(noiseAware).toBeLessThan(MOST_FALSE_FINDINGS);
    expect(textbook).toBeGreaterThan(TABLES / 2);
  });

  it('still finds a strong link among 10,000 people, and measures it near its true strength', () => {
    const kind: QuestionKind = { type: 'MC', keys: [1, 2] };
    const buckets = bucketsOf(kind);
    let found = 0;
    // Related from the first 32 people on: 9 epochs by 10,000.
    const variance = pairLinkVariance(2, 2, 9);
    for (let index = 0; index < 50; index += 1) {
      const noisy = relateReleased(
        table(
          10_000,
          [0.5, 0.5],
          [
            [0.8, 0.2],
            [0.2, 0.8],
          ],
        ),
        9,
      );
      const tested = associationOf({
        first: kind,
        firstLabels: ['Yes', 'No'],
        buckets,
        variance,
        rows: noisy.map((counts, row) => ({ key: row + 1, label: `Row ${row + 1}`, counts })),
      });
      if (tested?.association.significant) found += 1;
      // The true Cramér's V is 0.6: the noise's share is taken out of it, not added.
      expect(tested!.association.cramers_v).toBeGreaterThan(0.55);
      expect(tested!.association.cramers_v).toBeLessThan(0.65);
    }
    expect(found).toBe(50);
  });
});

describe('a rating related to a choice', () => {
  it('is tested in ranges that each hold votes, wherever the noise left a few', () => {
    const kind: QuestionKind = { type: 'RS', min: 1, max: 10 };
    // Evening people rate mornings 3 or 4, morning people 8 or 9; the noise left a vote or two elsewhere.
    const rows = [
      { key: 1, label: 'Morning', counts: [0, 1, 0, 2, 0, 0, 1, 498, 500, 1] },
      { key: 2, label: 'Evening', counts: [2, 0, 499, 500, 1, 0, 0, 0, 1, 0] },
    ];
    const tested = associationOf({
      first: kind,
      firstLabels: [],
      buckets: bucketsOf(kind),
      // Two thousand people related from the first 32 on: 6 epochs.
      variance: pairLinkVariance(10, 2, 6),
      rows,
    })!;
    expect(tested.test.columns.length).toBeGreaterThanOrEqual(2);
    expect(reliable(tested.test)).toBe(true);
    expect(tested.association).toMatchObject({ significant: true, strength: 'strong' });
  });
});

describe('related questions from noisy tables', () => {
  it('offers something for no more questions answered at random than the false discovery rate allows', () => {
    const kind: QuestionKind = { type: 'MC', keys: [1, 2, 3] };
    const buckets = bucketsOf(kind);
    const shares = [1 / 3, 1 / 3, 1 / 3];
    let offered = 0;
    const questions = 1_000;
    // Related from the first 32 people on: 6 epochs by 1,500.
    const variance = pairLinkVariance(3, 2, 6);
    for (let question = 0; question < questions; question += 1) {
      // Eight candidates, answered at random by 1,500 people, each table released with noise.
      const pValues = Array.from({ length: 8 }, () => {
        const noisy = relateReleased(table(1_500, [0.5, 0.5], [shares, shares]), 6);
        const tested = associationOf({
          first: kind,
          firstLabels: ['A', 'B', 'C'],
          buckets,
          variance,
          rows: noisy.map((counts, row) => ({ key: row + 1, label: `${row}`, counts })),
        });
        return tested && reliable(tested.test, true) ? tested.test.pValue : null;
      }).filter((p): p is number => p !== null);
      if (benjaminiHochberg(pValues).some((q) => q < 0.05)) offered += 1;
    }
    // At most 5% of them: 50 of 1,000, with a standard deviation of 6.9; 80 would be 4.4 too many,
    // which chance gives about once in 200,000 runs, and a rate of 8% half the time.
    expect(offered).toBeLessThan(80);
  });
});

describe('a noisy group against everyone else', () => {
  it('is rarely marked different when it is not, in percentages or in averages', () => {
    for (const kind of [
      { type: 'MC', keys: [1, 2, 3] },
      { type: 'RS', min: 1, max: 10 },
    ] satisfies QuestionKind[]) {
      const buckets = bucketsOf(kind);
      const shares = buckets.values.map(() => 1 / buckets.count);
      let marked = 0;
      for (let index = 0; index < TABLES; index += 1) {
        // A group of about 300 among 3,000 in 10 countries (256 votes counted), answering as everyone does: a gender in one
        // country.
        const [group, rest] = table(3_000, [0.1, 0.9], [shares, shares]);
        const variance = breakdownVariance(buckets.count, 10, [1, 1, 7, 1], 256);
        const [noisy] = released([group], variance);
        const everyone = new Map(buckets.values.map((value, bucket) => [value, group[bucket] + rest[bucket]]));
        const comparison = compareWithEveryone(kind, [], buckets, { counts: noisy, variance }, everyone);
        const significant =
          kind.type === 'MC' ? comparison.rows.some((row) => row.significant) : comparison.average!.significant;
        if (significant) marked += 1;
      }
      // Three percentages are tested at once for a choice: up to three times as many chance findings.
      expect(marked, kind.type).toBeLessThan(kind.type === 'MC' ? 3 * MOST_FALSE_FINDINGS : MOST_FALSE_FINDINGS);
    }
  });

  it('gives a group of 3 real people margins too wide to say anything', () => {
    const kind: QuestionKind = { type: 'MC', keys: [1, 2] };
    const buckets = bucketsOf(kind);
    // One cell per answer: a gender, an age band and a country, of a question in 10 countries at 64 votes counted.
    const variance = breakdownVariance(2, 10, [1, 1, 1, 1], 64);
    for (let index = 0; index < 50; index += 1) {
      const [noisy] = released([[2, 1]], variance);
      if (totalOf(noisy) === 0) continue;
      const comparison = compareWithEveryone(
        kind,
        ['Yes', 'No'],
        buckets,
        { counts: noisy, variance },
        new Map([
          [1, 500],
          [2, 500],
        ]),
      );
      // Whatever the noise made of them, the margin covers a quarter of every share or more (a draw
      // of 29.7 points failed a bound of 30 once: the bound is on the noise, not on its luck).
      for (const row of comparison.rows) expect(row.margin).toBeGreaterThan(25);
    }
  });

  it('shows a researcher a group of 100,000 among 200,000 voters within a point of its exact percentages', () => {
    // Women of every age over 50 countries, at 131,072 votes counted.
    const variance = breakdownVariance(3, 50, [1, 1, 7, 50], 131_072);
    const exact = [40_000, 35_000, 25_000];
    for (let index = 0; index < 50; index += 1) {
      const [noisy] = released([exact], variance);
      const counts = nonNegative(noisy);
      expect(Math.abs(totalOf(counts) - 100_000)).toBeLessThan(500);
      percentages(counts).forEach((percent, answer) =>
        expect(Math.abs(percent - percentages(exact)[answer])).toBeLessThanOrEqual(1),
      );
    }
  });

  it('widens a margin by the noise and by sampling together', () => {
    expect(proportionMargin(500, 1_000, 0)).toBeCloseTo(0.031, 3);
    // Noise of standard deviation 0.02 in the share: √(0.031² + (1.96 × 0.02)²) = 0.050.
    expect(proportionMargin(500, 1_000, 0.02 ** 2)).toBeCloseTo(0.05, 3);
  });
});
