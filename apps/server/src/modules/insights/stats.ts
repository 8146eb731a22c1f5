/**
 * The statistics behind breakdown and relate, written out so that every figure the app shows
 * can be traced to a formula: the chi-square test of independence with Cramér's V, margins of
 * error of proportions and means, tests of a group against the rest, and the Benjamini–Hochberg
 * correction for testing many pairs at once.
 */

/** The two-sided 95% point of the standard normal distribution. */
export const Z_95 = 1.959963984540054;

const EPSILON = 1e-15;
const TINY = 1e-300;
const MAX_ITERATIONS = 10_000;

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos approximation, g = 7). */
export function lnGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - lnGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0];
  for (let index = 1; index < LANCZOS.length; index += 1) sum += LANCZOS[index] / (z + index);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** P(a, x) by its series, which converges quickly for x < a + 1. */
function gammaSeries(a: number, x: number): number {
  let term = 1 / a;
  let sum = term;
  for (let n = 1; n < MAX_ITERATIONS; n += 1) {
    term *= x / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPSILON) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - lnGamma(a));
}

/** Q(a, x) by its continued fraction (modified Lentz), which converges quickly for x ≥ a + 1. */
function gammaContinuedFraction(a: number, x: number): number {
  let b = x + 1 - a;
  let c = 1 / TINY;
  let d = 1 / b;
  let h = d;
  for (let n = 1; n < MAX_ITERATIONS; n += 1) {
    const an = -n * (n - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < TINY) d = TINY;
    c = b + an / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return Math.exp(-x + a * Math.log(x) - lnGamma(a)) * h;
}

/** The regularized lower incomplete gamma function P(a, x). */
export function regularizedGammaP(a: number, x: number): number {
  if (x <= 0) return 0;
  return x < a + 1 ? gammaSeries(a, x) : 1 - gammaContinuedFraction(a, x);
}

/** The regularized upper incomplete gamma function Q(a, x) = 1 − P(a, x), accurate in the far tail. */
export function regularizedGammaQ(a: number, x: number): number {
  if (x <= 0) return 1;
  return x < a + 1 ? 1 - gammaSeries(a, x) : gammaContinuedFraction(a, x);
}

/** P(X ≥ x) for X chi-square distributed with `df` degrees of freedom. */
export function chiSquareSurvival(x: number, df: number): number {
  return regularizedGammaQ(df / 2, x / 2);
}

/** Two-sided p-value of a standard normal statistic: erfc(|z|/√2) = Q(½, z²/2). */
export function normalTwoSided(z: number): number {
  return regularizedGammaQ(0.5, (z * z) / 2);
}

/** The continued fraction of the incomplete beta function (modified Lentz). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  let c = 1;
  let d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m < MAX_ITERATIONS; m += 1) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((a + m2 - 1) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPSILON) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b). */
export function regularizedBeta(x: number, a: number, b: number): number {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(lnGamma(a + b) - lnGamma(a) - lnGamma(b) + a * Math.log(x) + b * Math.log(1 - x));
  // The fraction converges fast on one side of the mean; the symmetry I_x(a,b) = 1 − I_{1−x}(b,a) gives the other.
  return x < (a + 1) / (a + b + 2)
    ? (front * betaContinuedFraction(x, a, b)) / a
    : 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
}

/** Two-sided p-value of a Student t statistic with `df` degrees of freedom. */
export function studentTTwoSided(t: number, df: number): number {
  return regularizedBeta(df / (df + t * t), df / 2, 0.5);
}

export interface ChiSquareTest {
  /** People in the table. */
  n: number;
  chiSquare: number;
  df: number;
  pValue: number;
  cramersV: number;
  /**
   * min(rows, columns) − 1 of the table once empty rows and columns are left out: the df Cramér's V is read against.
   */
  smallerDf: number;
  /** The smallest count expected under independence. */
  minExpected: number;
  /** Expected counts under independence, by row and column, for the cells kept. */
  expected: number[][];
  /** The indexes of the rows and columns kept (those with anyone in them). */
  rows: number[];
  columns: number[];
}

/**
 * Pearson's chi-square test of independence of a table of counts, without continuity correction,
 * and Cramér's V. Rows and columns nobody is in are left out. Null when fewer than two rows or
 * two columns have anyone in them: there is nothing to test.
 *
 * Counts released with noise of a known variance per cell (`noise`, by row and column) are tested
 * so that the noise cannot pass for a link: under independence a cell's difference from its
 * expected count varies by about the expected count (sampling) plus the noise's variance, so each
 * squared difference is divided by both, and the statistic keeps the chi-square distribution
 * whatever the noise (after Gaboardi, Lim, Rogers and Vadhan, "Differentially Private Chi-Squared
 * Hypothesis Testing", 2016). Cramér's V measures the link itself: from each squared difference
 * the noise's expected share is taken away first, the noise's variance less what the table's
 * margins absorb of it, a factor (1 − 1/rows)(1 − 1/columns).
 */
export function chiSquareTest(table: number[][], noise?: number[][]): ChiSquareTest | null {
  const rowTotals = table.map((row) => row.reduce((sum, count) => sum + count, 0));
  const width = Math.max(0, ...table.map((row) => row.length));
  const columnTotals = Array.from({ length: width }, (_, column) =>
    table.reduce((sum, row) => sum + (row[column] ?? 0), 0),
  );
  const rows = rowTotals.flatMap((total, index) => (total > 0 ? [index] : []));
  const columns = columnTotals.flatMap((total, index) => (total > 0 ? [index] : []));
  if (rows.length < 2 || columns.length < 2) return null;
  const n = rows.reduce((sum, row) => sum + rowTotals[row], 0);
  // The part of a cell's noise its difference from the expected count keeps: the rest goes into the margins the
  // expectation is made from.
  const noiseKept = (1 - 1 / rows.length) * (1 - 1 / columns.length);
  let chiSquare = 0;
  let signal = 0;
  let minExpected = Infinity;
  const expected = rows.map((row) =>
    columns.map((column) => {
      const expectedCount = (rowTotals[row] * columnTotals[column]) / n;
      const squared = ((table[row][column] ?? 0) - expectedCount) ** 2;
      const variance = noise?.[row]?.[column] ?? 0;
      chiSquare += squared / (expectedCount + variance);
      signal += (squared - noiseKept * variance) / expectedCount;
      minExpected = Math.min(minExpected, expectedCount);
      return expectedCount;
    }),
  );
  const df = (rows.length - 1) * (columns.length - 1);
  const smallerDf = Math.min(rows.length, columns.length) - 1;
  return {
    n,
    chiSquare,
    df,
    pValue: chiSquareSurvival(chiSquare, df),
    cramersV: Math.min(1, Math.sqrt(Math.max(0, signal) / (n * smallerDf))),
    smallerDf,
    minExpected,
    expected,
    rows,
    columns,
  };
}

export type Strength = 'negligible' | 'weak' | 'moderate' | 'strong';

/**
 * Cohen's conventions for Cramér's V: small 0.1, medium 0.3 and large 0.5 for a two-by-something
 * table, scaled by 1/√(min(r, c) − 1) for larger ones.
 */
export function strengthOf(cramersV: number, smallerDf: number): Strength {
  const scale = 1 / Math.sqrt(Math.max(1, smallerDf));
  if (cramersV >= 0.5 * scale) return 'strong';
  if (cramersV >= 0.3 * scale) return 'moderate';
  if (cramersV >= 0.1 * scale) return 'weak';
  return 'negligible';
}

/**
 * Half the width of the 95% interval of a proportion: its Wilson score interval, which unlike the
 * textbook p ± 1.96·√(p(1−p)/n) does not shrink to nothing when p is 0 or 1, widened by the
 * variance `noise` that privacy noise adds to the proportion (the two errors are independent, so
 * their variances add).
 */
export function proportionMargin(successes: number, n: number, noise = 0): number {
  if (n <= 0) return 0;
  const z = Z_95;
  const p = successes / n;
  const wilson = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return Math.sqrt(wilson * wilson + z * z * noise);
}

/**
 * Two-sided p-value of the pooled two-proportion z-test: do groups 1 and 2 differ? `noise` is the variance privacy
 * noise adds to the difference.
 */
export function twoProportionPValue(x1: number, n1: number, x2: number, n2: number, noise = 0): number {
  if (n1 <= 0 || n2 <= 0) return 1;
  const pooled = (x1 + x2) / (n1 + n2);
  const standardError = Math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2) + noise);
  if (standardError === 0) return 1;
  return normalTwoSided((x1 / n1 - x2 / n2) / standardError);
}

export interface Sample {
  n: number;
  mean: number;
  /** The sample variance (n − 1 in the denominator). */
  variance: number;
}

/**
 * Two-sided p-value of Welch's t-test: do the means of two groups differ? `noise` is the variance
 * privacy noise adds to the difference; the degrees of freedom are those of the sampling part
 * alone, which only makes the test more cautious.
 */
export function welchPValue(a: Sample, b: Sample, noise = 0): number {
  if (a.n < 2 || b.n < 2) return 1;
  const va = a.variance / a.n;
  const vb = b.variance / b.n;
  if (va + vb + noise === 0) return a.mean === b.mean ? 1 : 0;
  const t = (a.mean - b.mean) / Math.sqrt(va + vb + noise);
  const df = va + vb === 0 ? Math.min(a.n, b.n) - 1 : (va + vb) ** 2 / (va ** 2 / (a.n - 1) + vb ** 2 / (b.n - 1));
  return studentTTwoSided(t, df);
}

/** Half the width of the 95% t interval of a mean, widened by the variance `noise` that privacy noise adds to it. */
export function meanMargin(sample: Sample, noise = 0): number {
  if (sample.n < 2) return 0;
  const sampling = tQuantile95(sample.n - 1) * Math.sqrt(sample.variance / sample.n);
  return Math.sqrt(sampling * sampling + Z_95 * Z_95 * noise);
}

const tQuantiles = new Map<number, number>();

/** The two-sided 95% point of Student's t with `df` degrees of freedom, by bisection on its p-value. */
export function tQuantile95(df: number): number {
  const known = tQuantiles.get(df);
  if (known !== undefined) return known;
  let low = 0;
  let high = 1000;
  for (let step = 0; step < 100; step += 1) {
    const middle = (low + high) / 2;
    if (studentTTwoSided(middle, df) > 0.05) low = middle;
    else high = middle;
  }
  const quantile = (low + high) / 2;
  if (Number.isInteger(df) && tQuantiles.size < 10_000) tQuantiles.set(df, quantile);
  return quantile;
}

/**
 * Benjamini–Hochberg adjusted p-values (q-values), in the order given: a pair whose q is below
 * 0.05 is a discovery with the false discovery rate held at 5% across all the pairs tested.
 */
export function benjaminiHochberg(pValues: number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p);
  const qValues = new Array<number>(m);
  let running = 1;
  for (let rank = m; rank >= 1; rank -= 1) {
    const { p, index } = order[rank - 1];
    running = Math.min(running, (p * m) / rank);
    qValues[index] = running;
  }
  return qValues;
}
