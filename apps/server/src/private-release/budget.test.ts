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
        const spent = spentBy(breakdownAllocation(answers, countries));
        expect(spent, `${answers} answers, ${countries} countries`).toBeLessThanOrEqual(BREAKDOWN_RHO);
        // Rounding the variances up to hundredths gives back almost nothing.
        expect(spent).toBeGreaterThan(BREAKDOWN_RHO * 0.99);
      }
    }
  });
});

describe('the release points', () => {
  it('are the doublings of 32, each vote in exactly one epoch', () => {
    expect(releasePointsBetween(0, 31)).toEqual([]);
    expect(releasePointsBetween(0, 400)).toEqual([32, 64, 128, 256]);
    expect(releasePointsBetween(256, 1_000_000)).toEqual([
      512, 1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 524288,
    ]);
    // After a count the tree released (40 votes), the next point is the next doubling.
    expect(nextReleasePoint(40)).toBe(64);
    expect(nextReleasePoint(64)).toBe(128);
  });
});
