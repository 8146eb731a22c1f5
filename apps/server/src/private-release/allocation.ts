import type { Fraction } from './discrete-noise.js';
import { countVariance, precisions } from './marginals.js';

/** A marginal people read, and how much its cells' variance weighs in what the allocation minimizes. */
export interface WorkloadEntry {
  mask: number;
  weight: number;
}

/** The noise of each measured marginal: its variance, as the samplers take it. */
export interface Allocation {
  mask: number;
  variance: Fraction;
}

/** Variances are rounded up to hundredths, so that the rounding only spends less. */
const VARIANCE_DENOMINATOR = 100n;
const STEPS = 400;

/** The weighted sum of the workload's cell variances, with `budgets[j]` = 1/σ² of candidate j. */
function workloadVariance(
  sizes: readonly number[],
  candidates: readonly number[],
  budgets: readonly number[],
  workload: readonly WorkloadEntry[],
  exactMasks: readonly number[],
): number {
  const lambda = precisions(
    sizes,
    candidates.map((mask, j) => ({ mask, variance: 1 / budgets[j] })),
  );
  let total = 0;
  for (const { mask, weight } of workload)
    total +=
      weight *
      countVariance(
        sizes,
        lambda,
        exactMasks,
        sizes.map((n, i) => (mask & (1 << i) ? 1 : n)),
      );
  return total;
}

/**
 * How to split a budget ρ among marginals, each measured with discrete Gaussian noise: a record
 * moves from one cell to another in every marginal that keeps an attribute it changes, a change
 * of squared size 2, so a marginal with noise of variance σ² spends ρ = 1/σ², and the spends add
 * up. The split minimizes the workload's weighted variance after the least-squares estimate
 * (marginals.ts), a convex function of the spends 1/σ²: found by exponentiated gradient descent
 * on the simplex they share (the optimal allocation ResidualPlanner and HDMM solve for, over
 * marginals rather than residuals, so that each noise draw stays a whole number). A candidate
 * the optimum gives (almost) nothing is dropped.
 */
export function optimalAllocation(
  sizes: readonly number[],
  candidates: readonly number[],
  workload: readonly WorkloadEntry[],
  exactMasks: readonly number[],
  rho: number,
): Allocation[] {
  let budgets = candidates.map(() => rho / candidates.length);
  for (let step = 0; step < STEPS; step += 1) {
    const base = workloadVariance(sizes, candidates, budgets, workload, exactMasks);
    const gradient = budgets.map((budget, j) => {
      const nudged = budgets.map((other, k) => (k === j ? other * (1 + 1e-6) : other));
      return (workloadVariance(sizes, candidates, nudged, workload, exactMasks) - base) / (budget * 1e-6);
    });
    const scale = Math.max(...gradient.map(Math.abs));
    const rate = 1 / Math.sqrt(step + 1);
    const moved = budgets.map((budget, j) => budget * Math.exp((-rate * gradient[j]) / scale));
    const sum = moved.reduce((a, b) => a + b, 0);
    budgets = moved.map((budget) => (budget * rho) / sum);
  }
  return candidates.flatMap((mask, j) => {
    if (budgets[j] < rho / 1000) return [];
    return [
      {
        mask,
        variance: {
          num: BigInt(Math.ceil((Number(VARIANCE_DENOMINATOR) / budgets[j]) * (1 + 1e-9))),
          den: VARIANCE_DENOMINATOR,
        },
      },
    ];
  });
}

export function asNumber(fraction: Fraction): number {
  return Number(fraction.num) / Number(fraction.den);
}

/** What an allocation spends: Σ 1/σ². */
export function spentBy(allocation: readonly Allocation[]): number {
  return allocation.reduce((sum, { variance }) => sum + 1 / asNumber(variance), 0);
}
