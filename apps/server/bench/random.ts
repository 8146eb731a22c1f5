import { createHash } from 'node:crypto';

/** A reproducible source of random numbers: the same seed and stream give the same sequence. */
export interface Random {
  /** Uniform in [0, 1). */
  next(): number;
  /** A whole number in [0, n). */
  below(n: number): number;
  /** Standard normal. */
  normal(): number;
  /** An index of `cumulative` (ascending, ending at 1) drawn by the weights it accumulates. */
  fromCumulative(cumulative: ArrayLike<number>, offset?: number, length?: number): number;
}

/**
 * Each part of the community draws from its own stream (users, questions, each question's
 * votes…), so a change to how one part is drawn leaves the others as they were.
 */
export function randomStream(seed: number, stream: string): Random {
  let state = createHash('sha256').update(`${seed}:${stream}`).digest().readUInt32LE(0);
  // mulberry32: small, fast, and good enough to shape a synthetic community.
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    below: (n) => Math.floor(next() * n),
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
    fromCumulative(cumulative, offset = 0, length = cumulative.length - offset) {
      const draw = next();
      for (let index = 0; index < length - 1; index += 1) if (draw < cumulative[offset + index]) return index;
      return length - 1;
    },
  };
}

/** Running sums of `weights`, scaled to end at 1. */
export function cumulativeOf(weights: number[]): number[] {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  let running = 0;
  return weights.map((weight) => (running += weight / total));
}

export function greatestCommonDivisor(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b];
  return a;
}
