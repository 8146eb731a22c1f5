import { describe, expect, it } from 'vitest';
import {
  benjaminiHochberg,
  chiSquareSurvival,
  chiSquareTest,
  lnGamma,
  normalTwoSided,
  proportionMargin,
  regularizedBeta,
  regularizedGammaP,
  regularizedGammaQ,
  strengthOf,
  studentTTwoSided,
  tQuantile95,
  twoProportionPValue,
  welchPValue,
  Z_95,
} from './stats.js';

// Reference values from SciPy 1.17 (scipy.special and scipy.stats).
describe('special functions', () => {
  it('computes ln Γ', () => {
    expect(lnGamma(0.5)).toBeCloseTo(0.5723649429247, 12);
    expect(lnGamma(10.3)).toBeCloseTo(13.482036786138359, 11);
    expect(lnGamma(1234.5)).toBeCloseTo(7550.550901077894, 8);
    expect(lnGamma(5)).toBeCloseTo(Math.log(24), 12);
  });

  it('computes the regularized incomplete gamma functions on both sides of a + 1', () => {
    expect(regularizedGammaP(2.5, 1.7)).toBeCloseTo(0.36143007689620493, 12);
    expect(regularizedGammaQ(10, 3)).toBeCloseTo(0.9988975118698845, 12);
    expect(regularizedGammaP(0.5, 0.01)).toBeCloseTo(0.11246291601828491, 12);
    expect(regularizedGammaQ(50, 80) / 0.0001307839765914092).toBeCloseTo(1, 9);
    // P(1, x) = 1 − e^−x exactly.
    for (const x of [0.1, 1, 2, 7.5]) expect(regularizedGammaP(1, x)).toBeCloseTo(1 - Math.exp(-x), 13);
    expect(regularizedGammaP(3, 0)).toBe(0);
    expect(regularizedGammaQ(3, 0)).toBe(1);
  });

  it('computes the regularized incomplete beta function on both sides of its mean', () => {
    expect(regularizedBeta(0.4, 2, 3)).toBeCloseTo(0.5248, 12);
    expect(regularizedBeta(0.1, 0.5, 5)).toBeCloseTo(0.6833570849799877, 12);
    expect(regularizedBeta(0.95, 10, 0.5)).toBeCloseTo(0.31715157546554495, 12);
    expect(regularizedBeta(0, 2, 3)).toBe(0);
    expect(regularizedBeta(1, 2, 3)).toBe(1);
  });
});

describe('distributions', () => {
  it('gives the chi-square survival function, also far in the tail', () => {
    expect(chiSquareSurvival(3.841458820694124, 1)).toBeCloseTo(0.05, 12);
    expect(chiSquareSurvival(10, 4)).toBeCloseTo(0.04042768199451279, 12);
    expect(chiSquareSurvival(0.5, 3)).toBeCloseTo(0.9188914116546758, 12);
    expect(chiSquareSurvival(1e-3, 2)).toBeCloseTo(0.9995001249791693, 12);
    expect(chiSquareSurvival(100, 50) / 3.454931382984871e-5).toBeCloseTo(1, 9);
    expect(chiSquareSurvival(250, 9) / 9.976151469298895e-49).toBeCloseTo(1, 8);
  });

  it('gives two-sided normal and Student t p-values', () => {
    expect(normalTwoSided(Z_95)).toBeCloseTo(0.05, 12);
    expect(normalTwoSided(-3.2)).toBeCloseTo(0.0013742758758316942, 12);
    expect(normalTwoSided(0.1)).toBeCloseTo(0.920344325445942, 12);
    expect(studentTTwoSided(2.228138851986274, 10)).toBeCloseTo(0.05, 12);
    expect(studentTTwoSided(1.5, 7)).toBeCloseTo(0.17729848698997, 12);
    expect(studentTTwoSided(3, 2.7)).toBeCloseTo(0.06589595765676666, 12);
    expect(studentTTwoSided(0.2, 120)).toBeCloseTo(0.8418191179144106, 12);
  });

  it('finds the 95% points of Student t', () => {
    expect(tQuantile95(10)).toBeCloseTo(2.228138851986274, 9);
    expect(tQuantile95(1)).toBeCloseTo(12.706204736174694, 8);
    expect(tQuantile95(4)).toBeCloseTo(2.7764451051977934, 9);
  });
});

describe('the chi-square test of independence', () => {
  it('matches scipy.stats.chi2_contingency without correction on a 2×2 table', () => {
    const test = chiSquareTest([
      [10, 20],
      [30, 40],
    ])!;
    expect(test.n).toBe(100);
    expect(test.df).toBe(1);
    expect(test.chiSquare).toBeCloseTo(0.7936507936507936, 12);
    expect(test.pValue).toBeCloseTo(0.37299848361348686, 12);
    expect(test.cramersV).toBeCloseTo(0.0890870806374748, 12);
    expect(test.minExpected).toBeCloseTo(12, 12);
  });

  it('matches SciPy on a 4×3 table, and Cramér’s V uses the smaller side', () => {
    const test = chiSquareTest([
      [90, 30, 10],
      [20, 60, 40],
      [15, 25, 70],
      [5, 5, 30],
    ])!;
    expect(test.df).toBe(6);
    expect(test.smallerDf).toBe(2);
    expect(test.chiSquare).toBeCloseTo(170.68353654892118, 9);
    expect(test.pValue / 3.2211510940052772e-34).toBeCloseTo(1, 6);
    expect(test.cramersV).toBeCloseTo(0.4619030425166644, 12);
  });

  it('leaves out rows and columns nobody is in, and has nothing to test with fewer than two of either', () => {
    const withEmpty = chiSquareTest([
      [10, 0, 20],
      [0, 0, 0],
      [30, 0, 40],
    ])!;
    expect(withEmpty.df).toBe(1);
    expect(withEmpty.chiSquare).toBeCloseTo(0.7936507936507936, 12);
    expect(withEmpty.rows).toEqual([0, 2]);
    expect(withEmpty.columns).toEqual([0, 2]);
    expect(chiSquareTest([[5, 7, 9]])).toBeNull();
    expect(chiSquareTest([[5], [7]])).toBeNull();
  });

  it('is 0 with p = 1 when the rows are proportional', () => {
    const test = chiSquareTest([
      [10, 20],
      [20, 40],
    ])!;
    expect(test.chiSquare).toBeCloseTo(0, 12);
    expect(test.pValue).toBeCloseTo(1, 12);
    expect(test.cramersV).toBeCloseTo(0, 12);
  });

  it('names the strength by Cohen’s conventions, scaled for larger tables', () => {
    expect(strengthOf(0.05, 1)).toBe('negligible');
    expect(strengthOf(0.15, 1)).toBe('weak');
    expect(strengthOf(0.35, 1)).toBe('moderate');
    expect(strengthOf(0.55, 1)).toBe('strong');
    // With three degrees of freedom the thresholds are 0.058, 0.173 and 0.289.
    expect(strengthOf(0.05, 3)).toBe('negligible');
    expect(strengthOf(0.2, 3)).toBe('moderate');
    expect(strengthOf(0.3, 3)).toBe('strong');
  });
});

describe('margins and group tests', () => {
  it('gives the half-width of the Wilson interval, which stays open at 0%', () => {
    expect(proportionMargin(12, 40)).toBeCloseTo(0.13677586794199204, 12);
    expect(proportionMargin(0, 20)).toBeCloseTo(0.08056257902640968, 12);
    expect(proportionMargin(0, 0)).toBe(0);
  });

  it('tests two proportions with the pooled z-test', () => {
    expect(twoProportionPValue(30, 100, 45, 200)).toBeCloseTo(0.15729920705028533, 12);
    expect(twoProportionPValue(5, 10, 0, 0)).toBe(1);
    expect(twoProportionPValue(0, 10, 0, 20)).toBe(1);
  });

  it('tests two means with Welch’s t-test', () => {
    const p = welchPValue({ n: 40, mean: 5.2, variance: 1.3 ** 2 }, { n: 200, mean: 4.6, variance: 1.9 ** 2 });
    expect(p).toBeCloseTo(0.01684871998858838, 10);
    expect(welchPValue({ n: 1, mean: 5, variance: 0 }, { n: 50, mean: 3, variance: 1 })).toBe(1);
  });
});

describe('Benjamini–Hochberg', () => {
  it('adjusts p-values in their order, as scipy.stats.false_discovery_control does', () => {
    const q = benjaminiHochberg([0.01, 0.04, 0.03, 0.005]);
    [0.02, 0.04, 0.04, 0.02].forEach((expected, index) => expect(q[index]).toBeCloseTo(expected, 12));
    expect(benjaminiHochberg([])).toEqual([]);
    expect(benjaminiHochberg([0.9])).toEqual([0.9]);
  });
});
