import { geometricSchedule } from './binary-tree.js';

/**
 * How much privacy one vote spends (docs/insights.md, Privacy), in zero-concentrated
 * differential privacy (ρ-zCDP), where releases add up by adding their ρ. Neighbouring data
 * differ in one vote: its answer, and the gender, age and country it was counted under.
 */

/** A vote's ρ in its question's breakdown release. */
export const BREAKDOWN_RHO = 1 / 8;
/** Pairs a question may be related in, and a vote's ρ in each: 8 × 1/64 = 1/8. */
export const RELATE_PAIRS = 8;
export const RELATE_PAIR_RHO = 1 / 64;
/** All a vote spends: 1/4. */
export const VOTE_RHO = BREAKDOWN_RHO + RELATE_PAIRS * RELATE_PAIR_RHO;

/**
 * A relate pair's table has one cell per pair of answers; a person's two answers move one count
 * from a cell to another, a change of squared size 2, so noise of variance σ² spends 1/σ².
 */
export const RELATE_VARIANCE = 1 / RELATE_PAIR_RHO;

/** The ρ-zCDP guarantee as (ε, δ)-differential privacy (Bun and Steinke 2016): ε = ρ + 2√(ρ ln(1/δ)). */
export function epsilonOf(rho: number, delta: number): number {
  return rho + 2 * Math.sqrt(rho * Math.log(1 / delta));
}

/**
 * The release before this one, which releases made until it was replaced still follow: a binary
 * tree over epochs 16 per doubling, σ² = 144 per node for breakdown (2 tables × 9 levels at
 * ρ = 1/8) and 1,280 for relate (10 levels at ρ = 1/128 per pair, of 16). Kept to read them.
 */
export const LEGACY = {
  releases: geometricSchedule(16),
  breakdownVariance: 144,
  relateVariance: 1280,
  /** A legacy pair spent 1/128 of each of its questions' votes: one unit of RELATE_UNITS. */
  relatePairUnits: 1,
};

/** A question's relate budget in units of 1/128: 16 in all, 2 for each pair released now. */
export const RELATE_UNITS = 16;
export const RELATE_PAIR_UNITS = 2;
