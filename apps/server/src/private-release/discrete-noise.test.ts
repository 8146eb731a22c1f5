import { describe, expect, it } from 'vitest';
import { bernoulliExp, cryptoRandom, CryptoRandom, discreteGaussian, discreteLaplace } from './discrete-noise.js';

/**
 * Each sampler is checked against its exact distribution by Pearson's chi-square test at a fixed
 * significance of 1 in 10,000: a correct sampler fails it once in 10,000 runs, a sampler off by
 * a few percent in any bin fails it nearly always at these sample sizes.
 */
const SIGNIFICANCE_Z = 3.719; // the normal quantile of 1 − 10⁻⁴

/**
 * The chi-square quantile of 1 − 10⁻⁴ by Wilson and Hilferty's cube approximation (within 1% from 5 degrees of
 * freedom).
 */
function chiSquareCritical(df: number): number {
  const a = 2 / (9 * df);
  return df * (1 - a + SIGNIFICANCE_Z * Math.sqrt(a)) ** 3;
}

/**
 * Pearson's statistic of integer draws against a probability mass function, over the values
 * whose expected count is at least 5. Each tail beyond them is folded into the outermost bin on
 * its side: a bin of its own would expect about one draw, and the statistic's chi-square law
 * does not hold for so small a cell, so a correct sampler would fail far more often than asked.
 */
function chiSquare(draws: number[], pmf: (value: number) => number, span: number): { statistic: number; df: number } {
  const weights = new Map<number, number>();
  let total = 0;
  for (let value = -span; value <= span; value += 1) {
    const weight = pmf(value);
    weights.set(value, weight);
    total += weight;
  }
  const expectedOf = (value: number) => ((weights.get(value) ?? 0) / total) * draws.length;
  const bins = [...weights.keys()].filter((value) => expectedOf(value) >= 5);
  const [low, high] = [Math.min(...bins), Math.max(...bins)];
  const observed = new Map<number, number>();
  for (const draw of draws) {
    const bin = Math.min(high, Math.max(low, draw));
    observed.set(bin, (observed.get(bin) ?? 0) + 1);
  }
  const expected = new Map<number, number>(bins.map((value) => [value, expectedOf(value)]));
  for (const value of weights.keys()) {
    if (value < low) expected.set(low, (expected.get(low) ?? 0) + expectedOf(value));
    if (value > high) expected.set(high, (expected.get(high) ?? 0) + expectedOf(value));
  }
  let statistic = 0;
  let cells = 0;
  for (const [bin, count] of expected) {
    if (count <= 0) continue;
    statistic += ((observed.get(bin) ?? 0) - count) ** 2 / count;
    cells += 1;
  }
  return { statistic, df: cells - 1 };
}

function sample(count: number, draw: () => number): number[] {
  return Array.from({ length: count }, draw);
}

describe('the exact samplers', () => {
  it('draw Bernoulli(exp(−γ)) for γ below and above 1', () => {
    for (const [num, den] of [
      [1n, 3n],
      [7n, 3n],
    ]) {
      const trials = 40_000;
      let hits = 0;
      for (let index = 0; index < trials; index += 1) if (bernoulliExp(cryptoRandom, { num, den })) hits += 1;
      const p = Math.exp(-Number(num) / Number(den));
      const z = (hits - trials * p) / Math.sqrt(trials * p * (1 - p));
      expect(Math.abs(z), `γ = ${num}/${den}: ${hits} of ${trials}`).toBeLessThan(SIGNIFICANCE_Z);
    }
  });

  it('draw the discrete Laplace distribution, of a whole and of a fractional scale', () => {
    for (const [num, den] of [
      [3n, 1n],
      [5n, 2n],
    ]) {
      const scale = Number(num) / Number(den);
      const draws = sample(30_000, () => Number(discreteLaplace(cryptoRandom, { num, den })));
      const { statistic, df } = chiSquare(draws, (value) => Math.exp(-Math.abs(value) / scale), 80);
      expect(statistic, `scale ${scale}, ${df} degrees of freedom`).toBeLessThan(chiSquareCritical(df));
    }
  });

  it('draw the discrete Gaussian distribution, of a small and of a fractional variance, centred on 0', () => {
    for (const [num, den] of [
      [2n, 1n],
      [45n, 2n],
    ]) {
      const variance = Number(num) / Number(den);
      const draws = sample(30_000, () => discreteGaussian(cryptoRandom, { num, den }));
      const { statistic, df } = chiSquare(draws, (value) => Math.exp(-(value * value) / (2 * variance)), 60);
      expect(statistic, `σ² = ${variance}, ${df} degrees of freedom`).toBeLessThan(chiSquareCritical(df));
      // The mean is 0 within its standard error's limits.
      const mean = draws.reduce((sum, draw) => sum + draw, 0) / draws.length;
      expect(Math.abs(mean) / Math.sqrt(variance / draws.length)).toBeLessThan(SIGNIFICANCE_Z);
    }
  });

  it('keep the variance asked for on the scale the releases use', () => {
    // σ² = 144: the sample variance of 20,000 draws is within 4% of it (its standard error is 1%).
    const draws = sample(20_000, () => discreteGaussian(cryptoRandom, { num: 144n, den: 1n }));
    const variance = draws.reduce((sum, draw) => sum + draw * draw, 0) / draws.length;
    expect(variance).toBeGreaterThan(144 * 0.96);
    expect(variance).toBeLessThan(144 * 1.04);
  });

  it('draw uniform integers below bounds of one and of several words', () => {
    const random = new CryptoRandom();
    const counts = [0, 0, 0];
    for (let index = 0; index < 30_000; index += 1) counts[Number(random.below(3n))] += 1;
    const statistic = counts.reduce((sum, count) => sum + (count - 10_000) ** 2 / 10_000, 0);
    // Two degrees of freedom: the 1 − 10⁻⁴ quantile is 18.42.
    expect(statistic).toBeLessThan(18.42);
    const big = 3n * 2n ** 70n;
    const draws = Array.from({ length: 2_000 }, () => random.below(big));
    expect(draws.every((draw) => draw >= 0n && draw < big)).toBe(true);
    // A third of the draws fall below a third of the bound, within 5 standard errors.
    const low = draws.filter((draw) => draw < 2n ** 70n).length;
    expect(Math.abs(low - 2_000 / 3)).toBeLessThan(5 * Math.sqrt((2_000 * 2) / 9));
  });
});
