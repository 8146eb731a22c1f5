import { RELATE_PAIRS_PER_QUESTION } from '@pollscope/contract';
import { geometricSchedule, treeLevels } from '../../lib/continual-release.js';
import type { Fraction } from '../../lib/discrete-noise.js';

/**
 * How much privacy one vote spends, and the noise that buys it (docs/insights.md, Privacy). The
 * accounting is zero-concentrated differential privacy (ρ-zCDP), in which releases add up by
 * adding their ρ. Neighbouring data sets differ in one vote: its answer, and the gender, age and
 * country it was counted under. In every noise node that counts that vote, one cell loses it and
 * another gains it, a change of squared size 2, so a node with discrete Gaussian noise of variance
 * σ² spends ρ = 2 / 2σ² = 1/σ².
 */

/** A release follows its question's votes: at every vote up to 32, then 16 times per doubling. */
export const RELEASES = geometricSchedule(16);

/** Epochs of a breakdown release up to the most votes a question can hold, and the levels of its tree: 447 and 9. */
const BREAKDOWN_EPOCHS = RELEASES.index(2 ** 31 - 1);
const BREAKDOWN_LEVELS = treeLevels(BREAKDOWN_EPOCHS);

/** A relate release starts an epoch when either question passes a release point: at most 895 epochs, 10 levels. */
export const RELATE_EPOCHS = 2 * BREAKDOWN_EPOCHS + 1;
const RELATE_LEVELS = treeLevels(RELATE_EPOCHS);

/** A vote's ρ in its question's breakdown release. */
export const BREAKDOWN_RHO = 1 / 8;
/** A vote's ρ in each relate pair its question takes part in, of at most RELATE_PAIRS_PER_QUESTION. */
export const RELATE_PAIR_RHO = 1 / 128;
/** All a vote spends: 1/8 + 16 × 1/128 = 1/4. */
export const VOTE_RHO = BREAKDOWN_RHO + RELATE_PAIRS_PER_QUESTION * RELATE_PAIR_RHO;

/** A breakdown release has two tables: answers by gender, age band and country, and the same over every country. */
const BREAKDOWN_TABLES = 2;

/** The noise variance of each node: a vote is in one node per level of each table, each costing 1/σ². 144 and 1,280. */
export const BREAKDOWN_VARIANCE = (BREAKDOWN_TABLES * BREAKDOWN_LEVELS) / BREAKDOWN_RHO;
export const RELATE_VARIANCE = RELATE_LEVELS / RELATE_PAIR_RHO;

/** A whole-number variance as the samplers take it. */
export function asFraction(variance: number): Fraction {
  if (!Number.isInteger(variance)) throw new Error(`A noise variance must be whole: ${variance}`);
  return { num: BigInt(variance), den: 1n };
}
