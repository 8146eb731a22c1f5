import { describe, expect, it } from 'vitest';
import { asNumber, spentBy } from './allocation.js';
import { RELATE_PAIR_RHO, RELATE_VARIANCE } from './budget.js';
import { varianceFactor } from './factorization.js';
import { countVariance, precisions } from './marginals.js';
import { PUBLIC_MARGINALS, relateAllocation, relateSizes } from './relate-design.js';

/** The variance of a choice's count of voters in one epoch measured by `tables`. */
function choiceVariance(firstAnswers: number, secondChoices: number, tables: { mask: number; variance: number }[]) {
  const sizes = relateSizes(firstAnswers, secondChoices);
  return countVariance(sizes, precisions(sizes, tables), PUBLIC_MARGINALS, [firstAnswers, 1]);
}

const allocated = (firstAnswers: number, secondChoices: number) =>
  choiceVariance(
    firstAnswers,
    secondChoices,
    relateAllocation(firstAnswers, secondChoices).map(({ mask, variance }) => ({ mask, variance: asNumber(variance) })),
  );

describe('the relate allocation', () => {
  it('never spends more than a pair’s 1/64, whatever the questions', () => {
    for (const firstAnswers of [2, 3, 4, 10])
      for (const secondChoices of [2, 3, 4, 10]) {
        const spent = spentBy(relateAllocation(firstAnswers, secondChoices));
        expect(spent, `${firstAnswers} by ${secondChoices}`).toBeLessThanOrEqual(RELATE_PAIR_RHO);
        // Rounding the variances up to hundredths gives back almost nothing.
        expect(spent).toBeGreaterThan(RELATE_PAIR_RHO * 0.99);
      }
  });

  it('counts a choice’s voters with less noise than the full table alone would', () => {
    for (const [firstAnswers, secondChoices] of [
      [2, 2],
      [3, 2],
      [4, 4],
      [10, 2],
      [10, 10],
    ]) {
      const alone = choiceVariance(firstAnswers, secondChoices, [{ mask: 3, variance: RELATE_VARIANCE }]);
      expect(allocated(firstAnswers, secondChoices), `${firstAnswers} by ${secondChoices}`).toBeLessThan(alone);
    }
  });

  it('keeps a yes-or-no choice’s voters within 12 of noise over the 4 epochs of 400 people', () => {
    const variance = allocated(2, 2);
    expect(variance).toBeCloseTo(47.1, 1);
    expect(Math.sqrt(varianceFactor(4) * variance)).toBeLessThanOrEqual(12);
  });
});
