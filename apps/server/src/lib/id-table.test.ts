import { describe, expect, it } from 'vitest';
import { IdSet, IdTable } from './id-table.js';

describe('IdTable', () => {
  it('answers as a Map would through a long run of additions, changes and removals', () => {
    const table = new IdTable(2, [
      [30, 1, 100],
      [10, 2.5, 200],
    ]);
    const reference = new Map<number, [number, number]>([
      [30, [1, 100]],
      [10, [2.5, 200]],
    ]);
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return Math.floor((seed / 2 ** 31) * below);
    };
    for (let step = 0; step < 5_000; step += 1) {
      const id = 1 + random(300);
      if (random(3) === 0) {
        expect(table.delete(id)).toBe(reference.delete(id));
      } else {
        const values: [number, number] = [random(1_000) / 4 - 50, random(2_000_000)];
        table.set(id, values);
        reference.set(id, values);
      }
      const probe = 1 + random(300);
      expect(table.has(probe)).toBe(reference.has(probe));
      expect(table.value(probe, 0)).toBe(reference.get(probe)?.[0]);
      expect(table.value(probe, 1)).toBe(reference.get(probe)?.[1]);
    }
    expect(table.size).toBe(reference.size);
    expect([...table]).toEqual([...reference.keys()].sort((a, b) => a - b));
    for (const [id, [first, second]] of reference)
      expect([table.value(id, 0), table.value(id, 1)]).toEqual([first, second]);
  });

  it('keeps ids past two billion apart from missing ones, and any number as a value', () => {
    const table = new IdTable(1, [[2_147_483_647, -0.125]]);
    expect(table.value(2_147_483_647, 0)).toBe(-0.125);
    expect(table.value(2_147_483_646, 0)).toBeUndefined();
  });
});

describe('IdSet', () => {
  it('holds each id once, in order', () => {
    const set = new IdSet([5, 3, 9]);
    set.add(3);
    set.add(1);
    set.delete(9);
    expect([...set]).toEqual([1, 3, 5]);
    expect(set.size).toBe(3);
    expect(set.has(9)).toBe(false);
  });
});
