import { describe, expect, it } from 'vitest';
import { distributionBins } from './value-distribution';

describe('distributionBins', () => {
  it('gives every point of a 1-to-10 rating a bar, voted or not', () => {
    const bins = distributionBins({ min: 1, max: 10 }, [{ choice: 7, count: 3 }], 7);
    expect(bins.map((bin) => bin.from)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(bins[6]).toEqual({ from: 7, to: 7, count: 3, mine: true });
  });

  it('groups many whole numbers into whole-number ranges', () => {
    const answers = Array.from({ length: 30 }, (_, index) => ({ choice: index * 3, count: 1 }));
    const bins = distributionBins({ min: 0, max: 100 }, answers, 42);
    expect(bins[0]).toMatchObject({ from: 0, to: 8 });
    expect(bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(30);
    expect(bins.filter((bin) => bin.mine)).toEqual([{ from: 36, to: 44, count: 3, mine: true }]);
  });

  it('gives each range a number question’s answers are counted in a bar of its own', () => {
    const answers = [
      { choice: 0, upto: 30, count: 4 },
      { choice: 30, upto: 60, count: 9 },
    ];
    expect(distributionBins({ min: 0, max: 60 }, answers, 60)).toEqual([
      { from: 0, to: 30, count: 4, mine: false },
      { from: 30, to: 60, count: 9, mine: true },
    ]);
  });
});
