import type { Fraction } from './discrete-noise.js';

/**
 * Running counts over epochs by a factorization of the counting matrix, quantized so that every
 * draw stays a whole number (docs/insights.md, "Time").
 *
 * The running count is A x, with A the lower-triangular matrix of ones over the epochs' counts x:
 * the Toeplitz matrix of the series 1 / (1 − z). It factors as A = L·C with C the Toeplitz matrix of
 * (1 − z)^(−α) and L that of (1 − z)^(α − 1). α = 1/2 is the square-root factorization of
 * Fichtenberger, Henzinger and Upadhyay ("Constant Matters", 2023), whose noise grows with the
 * length of the stream it is made for; with α below 1/2 the weights of C fall off fast enough
 * that, quantized, they end: R = round(256 C) has whole-number weights, 256 on its diagonal (so it
 * is invertible), and none past a few thousand epochs, so a vote is in a bounded number of
 * releases however long the stream runs, and no stream needs a length fixed in advance.
 *
 * Epoch j releases Y_j = Σ_{i≤j} R_{j−i} x_i + Z_j with Z_j discrete Gaussian; the running count is
 * read back as A R⁻¹ Y = A x + A R⁻¹ Z, post-processing. A vote counted in epoch i is in the
 * releases of epochs i, i + 1… with weights R_0, R_1…, so noise of variance σ² · Σ_k R_k²
 * (`streamVariance`) in every release spends what noise of σ² would in one. The count up to epoch
 * t then has noise of variance σ² · Σ_k R_k² · Σ_{k<t} (A R⁻¹)_k² (`varianceFactor` times σ²),
 * where t disjoint epochs summed would give t σ².
 */

/** The exponent α of the factor (1 − z)^(−α): the lowest noise over 4 to 30 epochs, measured in insights-utility.ts. */
export const EXPONENT = 0.35;

/** Scale of the quantized factor: R = round(SCALE · C). */
const SCALE = 256;

/**
 * The quantized factor round(SCALE · c_k) of (1 − z)^(−exponent), up to the last weight that is
 * not 0, or to `horizon` weights for a stream of at most that many epochs.
 */
export function quantizedFactor(exponent: number, horizon = Infinity): number[] {
  const weights = [SCALE];
  let c = 1;
  for (let k = 1; k < horizon; k += 1) {
    c = (c * (k - 1 + exponent)) / k;
    const weight = Math.round(SCALE * c);
    if (weight === 0) break;
    weights.push(weight);
  }
  return weights;
}

/** The first `epochs` coefficients of A R⁻¹ for a factor R, appended to `decode` (and R⁻¹'s to `inverse`). */
function extendDecode(factor: readonly number[], inverse: number[], decode: number[], epochs: number): void {
  for (let k = inverse.length; k < epochs; k += 1) {
    let sum = k === 0 ? 1 : 0;
    for (let m = 1; m <= Math.min(k, factor.length - 1); m += 1) sum -= factor[m] * inverse[k - m];
    inverse.push(sum / factor[0]);
    decode.push((decode[k - 1] ?? 0) + inverse[k]);
  }
}

/** A factor's running count's variance over `epochs` epochs, in units of one release of the whole budget. */
export function varianceFactorOf(factor: readonly number[], epochs: number): number {
  const [inverse, decode]: number[][] = [[], []];
  extendDecode(factor, inverse, decode, epochs);
  const norm = factor.reduce((sum, weight) => sum + weight * weight, 0);
  return norm * decode.reduce((sum, weight) => sum + weight * weight, 0);
}

/** R_0, R_1…: the release's quantized factor, whole numbers. */
export const FACTOR: readonly number[] = quantizedFactor(EXPONENT);

/** Σ_k R_k²: what a vote's squared weights in every release of a stream add up to. */
export const FACTOR_NORM = FACTOR.reduce((sum, weight) => sum + weight * weight, 0);

/** The coefficients of A R⁻¹ so far: the noise up to epoch t is Σ_{j≤t} decode[t − j] Z_j. */
const decode: number[] = [];
const inverse: number[] = [];

function decodeWeights(epochs: number): readonly number[] {
  extendDecode(FACTOR, inverse, decode, epochs);
  return decode;
}

/** The variance of each release's noise for a stream whose every release spends what `variance` would spend once. */
export function streamVariance(variance: Fraction): Fraction {
  return { num: variance.num * BigInt(FACTOR_NORM), den: variance.den };
}

/** The running count's noise up to the last of `releases` (epochs 1 to t, in order), from each release's noise. */
export function runningNoise(releases: readonly ArrayLike<number>[], cells: number): Float64Array {
  const weights = decodeWeights(releases.length);
  const noise = new Float64Array(cells);
  releases.forEach((release, j) => {
    const weight = weights[releases.length - 1 - j];
    for (let cell = 0; cell < cells; cell += 1) noise[cell] += weight * release[cell];
  });
  return noise;
}

/** The variance of the running count's noise up to the last of the releases, each release's noise of the variance given. */
export function runningVariance(variances: readonly number[]): number {
  const weights = decodeWeights(variances.length);
  return variances.reduce((sum, variance, j) => sum + weights[variances.length - 1 - j] ** 2 * variance, 0);
}

/** The release's running count's variance over `epochs` epochs, in units of one release of the whole budget. */
export function varianceFactor(epochs: number): number {
  return varianceFactorOf(FACTOR, epochs);
}
