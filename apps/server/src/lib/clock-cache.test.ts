import { describe, expect, it } from 'vitest';
import { ClockCache } from './clock-cache.js';

describe('ClockCache', () => {
  it('keeps what was used since the last sweep and drops the oldest of the rest', () => {
    const cache = new ClockCache<string, number>(3);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);
    expect(cache.get('a')).toBe(1);
    cache.set('d', 4);
    // b was the oldest unused: a had a second chance.
    expect([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([1, undefined, 3, 4]);
  });

  it('counts sizes, also of a value that grew in place, and never drops the entry just set', () => {
    const cache = new ClockCache<string, number[]>(5, (value) => value.length);
    cache.set('small', [1]);
    cache.set('big', [1, 2, 3, 4]);
    const small = cache.get('small')!;
    small.push(2, 3);
    cache.resized('small');
    // 3 + 4 > 5: the sweep gives small (used) its second chance and drops big.
    expect(cache.get('big')).toBeUndefined();
    expect(cache.get('small')).toEqual([1, 2, 3]);
    cache.set('huge', [1, 2, 3, 4, 5, 6, 7]);
    expect(cache.get('huge')).toHaveLength(7);
    expect(cache.get('small')).toBeUndefined();
  });

  it('tells of every value it stops keeping, however it goes', () => {
    const dropped: number[] = [];
    const cache = new ClockCache<string, number>(
      2,
      () => 1,
      (value) => dropped.push(value),
    );
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('a', 3);
    expect(dropped).toEqual([1]);
    cache.set('c', 4);
    expect(dropped).toEqual([1, 2]);
    cache.delete('c');
    expect(dropped).toEqual([1, 2, 4]);
    cache.clear();
    expect(dropped).toEqual([1, 2, 4, 3]);
  });

  it('counts its hits and misses, and tells what it holds against its budget', () => {
    const cache = new ClockCache<string, string>(10, (value) => value.length);
    cache.set('a', 'four');
    cache.set('b', 'three');
    cache.get('a');
    cache.get('a');
    cache.get('nothing');
    expect(cache.stats()).toEqual({ hits: 2, misses: 1, entries: 2, used: 9, budget: 10 });
    cache.delete('a');
    expect(cache.stats()).toMatchObject({ entries: 1, used: 5 });
  });
});
