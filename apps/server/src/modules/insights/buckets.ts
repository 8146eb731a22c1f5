import type { QuestionKind } from '../../views/results.js';

/**
 * The answers a private release counts a question's votes by: its choices, a rating's ten
 * values, or ten equal ranges of a number question's span. Fixed by the question alone, never by
 * its votes: which cells a release has must not tell what anyone answered.
 */
export interface Buckets {
  count: number;
  /** The bucket of an answer. */
  of(answer: number): number;
  /** What stands for each bucket in averages: the choice's key, the rating, or the middle of the range. */
  values: number[];
  /** A number question's ranges, from and up to; null for choices and ratings. */
  ranges: { from: number; upto: number }[] | null;
}

/** Ranges a number question's span is cut into. */
const NUMBER_RANGES = 10;

export function bucketsOf(kind: QuestionKind): Buckets {
  if (kind.type === 'MC')
    return { count: kind.keys.length, of: (key) => kind.keys.indexOf(key), values: kind.keys, ranges: null };
  if (kind.type === 'RS') {
    const values = Array.from({ length: kind.max - kind.min + 1 }, (_, index) => kind.min + index);
    return { count: values.length, of: (value) => value - kind.min, values, ranges: null };
  }
  const width = (kind.max - kind.min) / NUMBER_RANGES;
  const ranges = Array.from({ length: NUMBER_RANGES }, (_, index) => ({
    from: kind.min + index * width,
    upto: kind.min + (index + 1) * width,
  }));
  return {
    count: NUMBER_RANGES,
    of: (value) => Math.max(0, Math.min(NUMBER_RANGES - 1, Math.floor((value - kind.min) / width))),
    values: ranges.map((range) => (range.from + range.upto) / 2),
    ranges,
  };
}
