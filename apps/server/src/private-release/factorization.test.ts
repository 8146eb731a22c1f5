import { describe, expect, it } from 'vitest';
import { cryptoRandom, discreteGaussian } from './discrete-noise.js';
import { FACTOR, FACTOR_NORM, runningNoise, runningVariance, streamVariance, varianceFactor } from './factorization.js';

/** Epoch j's release of a stream without noise: Σ_{i≤j} R_{j−i} x_i. */
function releasesOf(counts: readonly number[]): number[] {
  return counts.map((_, j) => counts.slice(0, j + 1).reduce((sum, count, i) => sum + FACTOR[j - i] * count, 0));
}

describe('the factorized stream of releases', () => {
  it('has whole-number weights that end, 256 first, so its releases are drawn exactly and decoded back', () => {
    expect(FACTOR[0]).toBe(256);
    expect(FACTOR.every((weight) => Number.isInteger(weight) && weight > 0)).toBe(true);
    expect(FACTOR.length).toBeLessThan(5000);
    // Decoding noiseless releases gives back every running count.
    const counts = [32, 16, 16, 32, 32, 64, 64, 128, 128, 256, 7, 0, 3];
    const releases = releasesOf(counts);
    for (let t = 1; t <= counts.length; t += 1) {
      const decoded = runningNoise(
        releases.slice(0, t).map((value) => [value]),
        1,
      )[0];
      expect(decoded).toBeCloseTo(
        counts.slice(0, t).reduce((a, b) => a + b, 0),
        6,
      );
    }
  });

  it('spends in all of a vote’s releases what one release with the whole budget would', () => {
    const variance = { num: 9210n, den: 100n };
    const stream = streamVariance(variance);
    // ρ of one cell's change of squared size 2 in every release: Σ_k 2 R_k² / (2 s²) = 1 / σ².
    const spent = FACTOR.reduce(
      (sum, weight) => sum + (weight * weight) / (Number(stream.num) / Number(stream.den)),
      0,
    );
    expect(spent).toBeCloseTo(100 / 9210, 12);
    expect(FACTOR_NORM).toBe(FACTOR.reduce((sum, weight) => sum + weight * weight, 0));
  });

  it('decodes noise with the variance the closed form gives', () => {
    const epochs = 8;
    const variances = Array.from({ length: epochs }, (_, j) => ({ num: BigInt(FACTOR_NORM * (10 + j)), den: 1n }));
    const cells = 4000;
    const releases = variances.map((variance) =>
      Array.from({ length: cells }, () => discreteGaussian(cryptoRandom, variance)),
    );
    const noise = runningNoise(releases, cells);
    const expected = runningVariance(variances.map(({ num }) => Number(num)));
    const mean = noise.reduce((a, b) => a + b, 0) / cells;
    const variance = noise.reduce((a, b) => a + b * b, 0) / cells;
    // The mean within 4.5 sds of its noise, the sample variance of 4,000 draws within 10%: each fails
    // about once in 100,000 runs.
    expect(Math.abs(mean)).toBeLessThan(4.5 * Math.sqrt(expected / cells));
    expect(variance / expected).toBeGreaterThan(0.9);
    expect(variance / expected).toBeLessThan(1.1);
  });

  it('has far less noise than disjoint epochs summed once there are a few', () => {
    expect(varianceFactor(1)).toBeCloseTo(FACTOR_NORM / 256 ** 2, 9);
    expect(varianceFactor(8)).toBeLessThan(8 / 2);
    expect(varianceFactor(30)).toBeLessThan(30 / 4);
  });
});
