import { describe, expect, it } from 'vitest';
import { optimalAllocation, spentBy, asNumber } from './allocation.js';
import { breakdownAllocation, breakdownSizes, publicMarginals, WORKLOAD } from './breakdown-design.js';
import { cryptoRandom, discreteGaussian } from './discrete-noise.js';
import { varianceFactor } from './factorization.js';
import { countVariance, estimate, marginalOf, precisions, type Measurement } from './marginals.js';

const sizes = [2, 2, 3, 2];
const table = Float64Array.from({ length: 24 }, (_, cell) => (cell * 7) % 11);
const strategy = [
  { mask: 2, variance: 4 },
  { mask: 1 | 2, variance: 9 },
  { mask: 1 | 4, variance: 6 },
  { mask: 15, variance: 16 },
];

/** The strategy's marginals with the release's own noise. */
function noisy(): Measurement[] {
  return strategy.map(({ mask, variance }) => ({
    mask,
    variance,
    values: marginalOf(sizes, table, mask).map(
      (count) => count + discreteGaussian(cryptoRandom, { num: BigInt(variance), den: 1n }),
    ),
  }));
}

describe('the least-squares estimate of a table from noisy marginals', () => {
  it('gives back the table exactly from noiseless marginals, and always meets the exact one', () => {
    const exact = strategy.map(({ mask, variance }) => ({ mask, variance, values: marginalOf(sizes, table, mask) }));
    const estimated = estimate(sizes, exact, [{ mask: 1, values: marginalOf(sizes, table, 1) }]);
    for (const [cell, count] of table.entries()) expect(estimated[cell]).toBeCloseTo(count, 9);
    const fromNoise = estimate(sizes, noisy(), [{ mask: 1, values: marginalOf(sizes, table, 1) }]);
    expect([...marginalOf(sizes, fromNoise, 1)].map((x) => x.toFixed(6))).toEqual(
      [...marginalOf(sizes, table, 1)].map((x) => x.toFixed(6)),
    );
  });

  it('is unbiased, with the variance the closed form gives, for a cell and for a group', () => {
    const lambda = precisions(sizes, strategy);
    const invariants = [{ mask: 1, values: marginalOf(sizes, table, 1) }];
    // A cell (answer 0, gender 1, band 2, country 0) and a group (gender 0, every answer, bands 0–1, every country).
    const cell = ((0 * 2 + 1) * 3 + 2) * 2 + 0;
    const group = (estimated: Float64Array) => {
      let sum = 0;
      for (let a = 0; a < 2; a += 1)
        for (let b = 0; b < 2; b += 1) for (let c = 0; c < 2; c += 1) sum += estimated[((a * 2 + 0) * 3 + b) * 2 + c];
      return sum;
    };
    const trueGroup = group(table);
    const trials = 4000;
    const errors = { cell: [] as number[], group: [] as number[] };
    for (let trial = 0; trial < trials; trial += 1) {
      const estimated = estimate(sizes, noisy(), invariants);
      errors.cell.push(estimated[cell] - table[cell]);
      errors.group.push(group(estimated) - trueGroup);
    }
    const meanOf = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const varianceOf = (values: number[]) => meanOf(values.map((value) => value ** 2));
    const expected = {
      cell: countVariance(sizes, lambda, [1], [1, 1, 1, 1]),
      group: countVariance(sizes, lambda, [1], [2, 1, 2, 2]),
    };
    for (const key of ['cell', 'group'] as const) {
      // Each bound fails about once in 100,000 runs: the mean at 4.5 sds of its own noise, and the
      // sample variance of 4,000 draws, within 2.2% (one sd) of the truth, at 10%.
      expect(Math.abs(meanOf(errors[key]))).toBeLessThan(4.5 * Math.sqrt(expected[key] / trials));
      expect(varianceOf(errors[key]) / expected[key]).toBeGreaterThan(0.9);
      expect(varianceOf(errors[key]) / expected[key]).toBeLessThan(1.1);
    }
  });

  it('is more precise than any one table alone', () => {
    const lambda = precisions(sizes, strategy);
    // A gender's count: from the gender table alone its variance is 4; the other tables add to it.
    expect(countVariance(sizes, lambda, [1], [2, 1, 3, 2])).toBeLessThan(4);
  });
});

describe('the allocation of the budget among tables', () => {
  it('spends no more than the budget, and beats an even split on its workload', () => {
    const sizesHere = breakdownSizes(2, 3);
    const candidates = [2, 4, 8, 3, 5, 9, 15];
    const allocation = optimalAllocation(sizesHere, candidates, WORKLOAD, [1], 1 / 8);
    expect(spentBy(allocation)).toBeLessThanOrEqual(1 / 8);
    expect(spentBy(allocation)).toBeGreaterThan(0.124);
    const weighted = (measured: { mask: number; variance: number }[]) => {
      const lambda = precisions(sizesHere, measured);
      return WORKLOAD.reduce(
        (sum, { mask, weight }) =>
          sum +
          weight *
            countVariance(
              sizesHere,
              lambda,
              [1],
              sizesHere.map((n, i) => (mask & (1 << i) ? 1 : n)),
            ),
        0,
      );
    };
    const optimal = weighted(allocation.map(({ mask, variance }) => ({ mask, variance: asNumber(variance) })));
    const even = weighted(candidates.map((mask) => ({ mask, variance: 8 * candidates.length })));
    expect(optimal).toBeLessThan(even * 0.95);
  });

  it('keeps a 400-vote yes-or-no question in 3 countries within 8 votes per gender, exact per band and country', () => {
    const allocation = breakdownAllocation(2, 3, true);
    const sizesHere = breakdownSizes(2, 3);
    const lambda = precisions(
      sizesHere,
      allocation.map(({ mask, variance }) => ({ mask, variance: asNumber(variance) })),
    );
    // 400 votes: 8 epochs of the stream, counting 384.
    const counted = (chosen: number[]) =>
      Math.sqrt(varianceFactor(8) * countVariance(sizesHere, lambda, publicMarginals(true), chosen));
    expect(counted([2, 1, 7, 3])).toBeLessThan(8);
    expect(counted([2, 2, 1, 3])).toBe(0);
    expect(counted([2, 2, 7, 1])).toBe(0);
  });
});

describe('holding several public marginals exact', () => {
  it('meets each of them exactly, and stays unbiased with the variance the closed form gives', () => {
    const invariants = [1, 4 | 8].map((mask) => ({ mask, values: marginalOf(sizes, table, mask) }));
    const exactMasks = invariants.map(({ mask }) => mask);
    const lambda = precisions(sizes, strategy);
    const errors: number[] = [];
    const trials = 4000;
    for (let trial = 0; trial < trials; trial += 1) {
      const estimated = estimate(sizes, noisy(), invariants);
      for (const { mask, values } of invariants)
        expect([...marginalOf(sizes, estimated, mask)].map((x) => x.toFixed(6))).toEqual(
          [...values].map((x) => x.toFixed(6)),
        );
      // A gender's count: its noise is all the estimate leaves.
      errors.push(marginalOf(sizes, estimated, 2)[0] - marginalOf(sizes, table, 2)[0]);
    }
    const expected = countVariance(sizes, lambda, exactMasks, [2, 1, 3, 2]);
    const mean = errors.reduce((a, b) => a + b, 0) / trials;
    const variance = errors.reduce((a, b) => a + b * b, 0) / trials;
    // As above: each bound fails about once in 100,000 runs.
    expect(Math.abs(mean)).toBeLessThan(4.5 * Math.sqrt(expected / trials));
    expect(variance / expected).toBeGreaterThan(0.9);
    expect(variance / expected).toBeLessThan(1.1);
  });
});
