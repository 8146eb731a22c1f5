import { RELATE_PAIRS_PER_QUESTION } from '@pollscope/contract';
import { describe, expect, it } from 'vitest';
import { spentBy } from './allocation.js';
import { breakdownAllocation } from './breakdown-design.js';
import {
  BREAKDOWN_RHO,
  epsilonOf,
  RELATE_PAIR_RHO,
  RELATE_PAIR_UNITS,
  RELATE_PAIRS,
  RELATE_UNITS,
  RELATE_VARIANCE,
  VOTE_RHO,
} from './budget.js';
import { nextReleasePoint, releasePointsBetween } from './schedule.js';

describe('what a vote spends', () => {
  it('is 1/8 for breakdown and 8 pairs of 1/64 for relate: 1/4 in all, ε 3.97 at δ = 10⁻⁶', () => {
    expect(VOTE_RHO).toBe(1 / 4);
    expect(RELATE_PAIRS).toBe(RELATE_PAIRS_PER_QUESTION);
    expect(RELATE_PAIRS * RELATE_PAIR_RHO).toBe(1 / 8);
    expect((RELATE_UNITS / RELATE_PAIR_UNITS) * RELATE_PAIR_RHO).toBe(1 / 8);
    expect(1 / RELATE_VARIANCE).toBe(RELATE_PAIR_RHO);
    expect(epsilonOf(VOTE_RHO, 1e-6)).toBeCloseTo(3.97, 2);
  });

  it('never spends more than 1/8 on a breakdown epoch, whatever the question and its countries', () => {
    for (const answers of [2, 3, 4, 10]) {
      for (const countries of [1, 2, 3, 10, 50, 200]) {
        const spent = spentBy(breakdownAllocation(answers, countries, answers !== 10));
        expect(spent, `${answers} answers, ${countries} countries`).toBeLessThanOrEqual(BREAKDOWN_RHO);
        // Rounding the variances up to hundredths gives back almost nothing.
        expect(spent).toBeGreaterThan(BREAKDOWN_RHO * 0.99);
      }
    }
  });
});

describe('the release points', () => {
  it('are two per doubling of 32, each vote in exactly one epoch', () => {
    expect(releasePointsBetween(0, 31)).toEqual([]);
    expect(releasePointsBetween(0, 400)).toEqual([32, 48, 64, 96, 128, 192, 256, 384]);
    const toAMillion = releasePointsBetween(0, 1_000_000);
    expect(toAMillion).toHaveLength(30);
    // At a million votes the release counts more than three quarters of them.
    expect(toAMillion.at(-1)).toBe(786_432);
    // After a count released before (the tree's 40 votes, or an epoch at a doubling), the stream goes on from it.
    expect(nextReleasePoint(40)).toBe(48);
    expect(nextReleasePoint(64)).toBe(96);
    expect(nextReleasePoint(96)).toBe(128);
  });
});
