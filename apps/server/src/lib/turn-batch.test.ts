import { describe, expect, it } from 'vitest';
import { TurnBatch } from './turn-batch.js';

/** A batch over squares, recording each call of loadMany; 13 is never found. */
function squares() {
  const calls: number[][] = [];
  const batch = new TurnBatch<number, number>(
    async (keys) => {
      calls.push(keys);
      return new Map(keys.filter((key) => key !== 13).map((key) => [key, key * key]));
    },
    (key) => new Error(`no ${key}`),
  );
  return { batch, calls };
}

describe('a batch of the keys asked for in one turn', () => {
  it('loads the keys of one turn in one call, a key asked twice once', async () => {
    const { batch, calls } = squares();
    expect(await Promise.all([batch.load(2), batch.load(3), batch.load(2)])).toEqual([4, 9, 4]);
    expect(calls).toEqual([[2, 3]]);
  });

  it('loads the keys of a later turn in a call of their own', async () => {
    const { batch, calls } = squares();
    await batch.load(2);
    await batch.load(3);
    expect(calls).toEqual([[2], [3]]);
  });

  it('rejects only the key that was not found', async () => {
    const { batch } = squares();
    const [found, missing] = await Promise.allSettled([batch.load(4), batch.load(13)]);
    expect(found).toEqual({ status: 'fulfilled', value: 16 });
    expect(missing).toMatchObject({ status: 'rejected', reason: new Error('no 13') });
  });

  it('rejects every key of a call that failed, and loads the next turn afresh', async () => {
    let fail = true;
    const batch = new TurnBatch<number, number>(
      async (keys) => {
        if (fail) throw new Error('database away');
        return new Map(keys.map((key) => [key, key]));
      },
      (key) => new Error(`no ${key}`),
    );
    const results = await Promise.allSettled([batch.load(1), batch.load(2)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await batch.load(1)).toBe(1);
  });
});
