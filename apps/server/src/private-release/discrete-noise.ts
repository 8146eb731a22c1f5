import { randomFillSync } from 'node:crypto';

/**
 * Integer noise drawn exactly: the samplers of Canonne, Kamath and Steinke, "The Discrete
 * Gaussian for Differential Privacy" (2020, arXiv:2004.00010), Algorithms 1 to 3. Every
 * probability is a fraction of integers and every draw a uniform integer from node:crypto, so no
 * floating-point rounding shapes the noise: noise made from floating-point numbers gives away the
 * value it hides through the pattern of its lowest bits.
 */

/** A non-negative fraction of integers, num / den with den > 0. */
export interface Fraction {
  num: bigint;
  den: bigint;
}

const TWO_TO_32 = 0x1_0000_0000;

/** Uniform integers from node:crypto, read 4 KiB at a time; a test gives `fill` seeded words, to know its draws. */
export class CryptoRandom {
  private readonly words = new Uint32Array(1024);
  private next = this.words.length;

  constructor(private readonly fill: (words: Uint32Array) => void = randomFillSync) {}

  private word(): number {
    if (this.next === this.words.length) {
      this.fill(this.words);
      this.next = 0;
    }
    return this.words[this.next++];
  }

  /** A uniform integer in [0, n) for 0 < n ≤ 2³², by rejection, so that no value is likelier than another. */
  private belowWord(n: number): number {
    const limit = TWO_TO_32 - (TWO_TO_32 % n);
    for (;;) {
      const word = this.word();
      if (word < limit) return word % n;
    }
  }

  /** A uniform integer in [0, n). */
  below(n: bigint): bigint {
    if (n <= 0n) throw new RangeError('The bound must be positive');
    if (n <= BigInt(TWO_TO_32)) return BigInt(this.belowWord(Number(n)));
    const bits = n.toString(2).length;
    const words = Math.ceil(bits / 32);
    const mask = (1n << BigInt(bits)) - 1n;
    for (;;) {
      let value = 0n;
      for (let index = 0; index < words; index += 1) value = (value << 32n) | BigInt(this.word());
      value &= mask;
      if (value < n) return value;
    }
  }
}

export const cryptoRandom = new CryptoRandom();

const ONE: Fraction = { num: 1n, den: 1n };

/** True with probability num / den (at most 1). */
function bernoulli(random: CryptoRandom, { num, den }: Fraction): boolean {
  return random.below(den) < num;
}

/**
 * True with probability exp(−γ) for 0 ≤ γ ≤ 1 (Algorithm 1): draw Bernoulli(γ / k) for k = 1, 2, …
 * until one is false; the first false comes at an odd k with probability 1 − γ + γ²/2! − … = exp(−γ).
 */
function bernoulliExpAtMostOne(random: CryptoRandom, { num, den }: Fraction): boolean {
  let k = 1n;
  while (bernoulli(random, { num, den: den * k })) k += 1n;
  return k % 2n === 1n;
}

/** True with probability exp(−γ) for any γ ≥ 0: exp(−1) once per whole unit of γ, then the rest. */
export function bernoulliExp(random: CryptoRandom, gamma: Fraction): boolean {
  let { num } = gamma;
  const { den } = gamma;
  while (num > den) {
    if (!bernoulliExpAtMostOne(random, ONE)) return false;
    num -= den;
  }
  return bernoulliExpAtMostOne(random, { num, den });
}

/**
 * An integer x with probability proportional to exp(−|x| / scale), scale = num / den (Algorithm
 * 2): a geometric number of whole `num`s plus a part below `num` accepted with probability
 * exp(−part / num), divided by `den`, with a random sign (zero drawn once, not twice).
 */
export function discreteLaplace(random: CryptoRandom, scale: Fraction): bigint {
  const { num: t, den: s } = scale;
  for (;;) {
    const part = random.below(t);
    if (!bernoulliExp(random, { num: part, den: t })) continue;
    let wholes = 0n;
    while (bernoulliExp(random, ONE)) wholes += 1n;
    const magnitude = (part + t * wholes) / s;
    const negative = random.below(2n) === 1n;
    if (negative && magnitude === 0n) continue;
    return negative ? -magnitude : magnitude;
  }
}

function integerSquareRoot(value: bigint): bigint {
  if (value < 2n) return value;
  let root = value;
  let next = (root + value / root) / 2n;
  while (next < root) {
    root = next;
    next = (root + value / root) / 2n;
  }
  return root;
}

/**
 * An integer x with probability proportional to exp(−x² / 2σ²), σ² = num / den (Algorithm 3):
 * a discrete Laplace draw of scale ⌊σ⌋ + 1, kept with probability exp(−(|x| − σ²/t)² / 2σ²),
 * which turns the Laplace's shape into the Gaussian's exactly.
 */
export function discreteGaussian(random: CryptoRandom, variance: Fraction): number {
  const { num: p, den: q } = variance;
  const t = integerSquareRoot(p / q) + 1n;
  const laplace = { num: t, den: 1n };
  // (|x| − σ²/t)² / 2σ² with σ² = p/q is (|x|·q·t − p)² / (2·p·q·t²).
  const den = 2n * p * q * t * t;
  for (;;) {
    const draw = discreteLaplace(random, laplace);
    const offset = (draw < 0n ? -draw : draw) * q * t - p;
    if (bernoulliExp(random, { num: offset * offset, den })) return Number(draw);
  }
}
