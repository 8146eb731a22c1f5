import { describe, expect, it } from 'vitest';
import { geometricSchedule, nodeId, nodeOf, prefixNodes, treeLevels } from './binary-tree.js';

const schedule = geometricSchedule(16);

describe('the release schedule', () => {
  it('releases at every count up to 32, then 16 times per doubling', () => {
    expect([0, 1, 2, 31, 32, 33, 34, 35].map((count) => schedule.index(count))).toEqual([0, 1, 2, 31, 32, 32, 33, 33]);
    expect([32, 33, 47, 48].map((index) => schedule.point(index))).toEqual([32, 34, 62, 64]);
    expect(schedule.point(schedule.index(1_000_000))).toBe(983_040);
  });

  it('never falls more than a sixteenth behind, and every point is its own release', () => {
    let previous = 0;
    for (let count = 1; count < 300_000; count += count < 5_000 ? 1 : 97) {
      const index = schedule.index(count);
      const point = schedule.point(index);
      expect(point).toBeLessThanOrEqual(count);
      expect(count - point).toBeLessThanOrEqual(count / 16);
      expect(schedule.index(point)).toBe(index);
      expect(index).toBeGreaterThanOrEqual(previous);
      previous = index;
    }
  });

  it('has fewer than 512 epochs for any count a 32-bit integer holds', () => {
    expect(schedule.index(2 ** 31 - 1)).toBeLessThan(512);
    expect(treeLevels(schedule.index(2 ** 31 - 1))).toBe(9);
  });
});

describe('the tree over epochs', () => {
  it('tiles epochs 1 to k with one node per bit of k', () => {
    for (let index = 1; index <= 1_100; index += 1) {
      const covered: number[] = [];
      for (const { level, position } of prefixNodes(index)) {
        for (let epoch = position * 2 ** level + 1; epoch <= (position + 1) * 2 ** level; epoch += 1)
          covered.push(epoch);
      }
      expect(covered.sort((a, b) => a - b)).toEqual(Array.from({ length: index }, (_, epoch) => epoch + 1));
      expect(prefixNodes(index)).toHaveLength(index.toString(2).replaceAll('0', '').length);
    }
    expect(prefixNodes(0)).toEqual([]);
  });

  it('counts each epoch in at most one node per level, whatever prefixes are read', () => {
    const max = 447;
    const nodesOfEpoch = new Map<number, Set<number>>();
    for (let index = 1; index <= max; index += 1) {
      for (const node of prefixNodes(index)) {
        for (
          let epoch = node.position * 2 ** node.level + 1;
          epoch <= (node.position + 1) * 2 ** node.level;
          epoch += 1
        ) {
          nodesOfEpoch.set(epoch, (nodesOfEpoch.get(epoch) ?? new Set()).add(nodeId(node)));
        }
      }
    }
    const most = Math.max(...[...nodesOfEpoch.values()].map((nodes) => nodes.size));
    expect(most).toBe(treeLevels(max));
  });

  it('names each node by one integer and back', () => {
    for (const node of [
      { level: 0, position: 0 },
      { level: 8, position: 1 },
      { level: 3, position: 4_000 },
    ]) {
      expect(nodeOf(nodeId(node))).toEqual(node);
    }
  });
});
