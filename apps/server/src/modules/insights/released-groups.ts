import type { Comparison, ReleasedGroup, Result } from '@pollscope/contract';
import { buildResult, percentages, roundTo2, type QuestionKind } from '../../views/results.js';
import type { Buckets } from './buckets.js';
import type { Counts } from './counts.js';
import { meanMargin, proportionMargin, twoProportionPValue, welchPValue, type Sample } from './stats.js';

/**
 * How a released group is shown: its counts made whole, whether they say enough to be shown, and
 * its result with margins and tests that count the release's noise beside everyone's. Breakdown
 * and relate both present their groups with these; nothing here reads or writes.
 */

/** What a group too small to show gets instead of its result. */
export function suppressedResult(): Result {
  return { count: 0, answers: [], suppressed: true };
}

export function totalOf(counts: Iterable<number>): number {
  let total = 0;
  for (const count of counts) total += count;
  return total;
}

/**
 * A group's votes per answer bucket as released: the noisy counts (nonNegative) and the variance
 * of the noise in each, 0 where the group is everyone and its counts are exact; `countVariance`
 * is the variance of the noise in the group's count of voters, when it is not simply the sum of
 * the answers' (the release's estimate ties them together).
 */
export interface ReleasedCounts {
  counts: number[];
  variance: number;
  countVariance?: number;
}

/**
 * A group's noisy counts per answer made whole and never negative while keeping their total: the
 * nearest such counts (least squares: the projection onto the simplex, Duchi, Shalev-Shwartz,
 * Singer and Chandra 2008), which take the same amount off every answer and stop at 0. Raising
 * each negative count to 0 instead would add votes where there are none, and in a group with few
 * of its answers chosen would move its percentages and average far from the truth.
 */
export function nonNegative(noisy: number[]): number[] {
  const total = Math.max(0, Math.round(totalOf(noisy)));
  if (total === 0) return noisy.map(() => 0);
  const sorted = [...noisy].sort((a, b) => b - a);
  let shift = 0;
  let sum = 0;
  for (const [index, value] of sorted.entries()) {
    sum += value;
    const candidate = (sum - total) / (index + 1);
    if (value - candidate > 0) shift = candidate;
  }
  const exact = noisy.map((value) => Math.max(0, value - shift));
  // Whole votes adding up to the total: each rounded down, the votes left to the largest remainders.
  const counts = exact.map(Math.floor);
  const order = exact
    .map((value, index) => ({ index, remainder: value - counts[index] }))
    .sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (let left = total - totalOf(counts), at = 0; left > 0; left -= 1, at += 1)
    counts[order[at % order.length].index] += 1;
  return counts;
}

function countsPerBucket(buckets: Buckets, votes: Counts): number[] {
  const counts = new Array<number>(buckets.count).fill(0);
  for (const [answer, count] of votes) counts[buckets.of(answer)] += count;
  return counts;
}

/**
 * Everyone's votes per bucket as they may be published: a rating's or number's counts, which
 * everyone's result shows; for a multiple-choice question, whose result shows whole percentages
 * and the number of votes but never a choice's count, those percentages of that number (fractions
 * of votes). An exact count at every vote would tell the next vote's answer from the difference.
 */
export function publicCounts(kind: QuestionKind, buckets: Buckets, votes: Counts): number[] {
  const counts = countsPerBucket(buckets, votes);
  if (kind.type !== 'MC') return counts;
  const total = totalOf(counts);
  return percentages(counts).map((percent) => (percent * total) / 100);
}

/**
 * A group's result from its counts per bucket: a choice's percentages, a rating's votes per value,
 * or a number's votes per range, with the average of the values standing for the buckets.
 */
export function bucketResult(kind: QuestionKind, buckets: Buckets, counts: number[]): Result {
  if (!buckets.ranges) return buildResult(kind, new Map(buckets.values.map((value, index) => [value, counts[index]])));
  const { n, mean } = sampleOf(buckets.values, counts);
  const answers = buckets.ranges.map((range, index) => ({
    choice: roundTo2(range.from),
    upto: roundTo2(range.upto),
    count: counts[index],
  }));
  return n > 0 ? { count: n, answers, average: roundTo2(mean) } : { count: n, answers };
}

/** How many standard deviations of its noise a count must be to be shown. */
const SHOWN_FROM_SDS = 2;

/**
 * Whether a noisy count says anything: at least k, and at least two standard deviations of its
 * noise, so that the count is known to within about half. Below that, what is shown would be
 * mostly the noise. A group of nobody is shown once in 40 tries or so, with margins of 40 points
 * or more that say it means nothing: suppression is for reading, not for privacy, which the
 * release keeps whatever is shown.
 */
export function mayShow(count: number, sd: number, k: number): boolean {
  return count >= k && count >= SHOWN_FROM_SDS * sd;
}

/** The standard deviation of the noise in a group's count of voters. */
export function countSdOf(group: ReleasedCounts): number {
  return Math.sqrt(group.countVariance ?? group.variance * group.counts.length);
}

/**
 * A group's result with its uncertainty, as splits and relate show it side by side; not shown when its count says too
 * little.
 */
export function releasedGroupOf(
  kind: QuestionKind,
  labels: string[],
  buckets: Buckets,
  label: string,
  group: ReleasedCounts | null,
  k: number,
): ReleasedGroup {
  const countSd = group ? countSdOf(group) : 0;
  const hidden = { label, shown: false, count: 0, count_sd: roundTo2(countSd), rows: [], average: null };
  if (!group || !mayShow(totalOf(group.counts), countSd, k)) return hidden;
  const n = totalOf(group.counts);
  const percents = percentages(group.counts);
  const answerLabels =
    kind.type === 'MC'
      ? labels
      : buckets.ranges
        ? buckets.ranges.map((range) => `${roundTo2(range.from)}–${roundTo2(range.upto)}`)
        : buckets.values.map(String);
  const rows = group.counts.map((count, index) => ({
    key: kind.type === 'MC' ? kind.keys[index] : buckets.values[index],
    label: answerLabels[index] ?? String(index + 1),
    percent: percents[index],
    margin: Math.round(proportionMargin(count, n, shareNoise(group, index)) * 1000) / 10,
  }));
  if (kind.type === 'MC') return { label, shown: true, count: n, count_sd: roundTo2(countSd), rows, average: null };
  const sample = sampleOf(buckets.values, group.counts);
  const meanNoise =
    group.variance * buckets.values.reduce((sum, value) => sum + ((value - sample.mean) / sample.n) ** 2, 0);
  return {
    label,
    shown: true,
    count: n,
    count_sd: roundTo2(countSd),
    rows,
    average: { value: roundTo2(sample.mean), margin: roundTo2(meanMargin(sample, meanNoise)) },
  };
}

/**
 * The variance the noise adds to an answer's share of a group, by the delta method: its own count moves it one way, the
 * others' the other.
 */
function shareNoise(group: ReleasedCounts, index: number): number {
  const n = totalOf(group.counts);
  if (n === 0) return 0;
  const share = group.counts[index] / n;
  return (group.variance * ((1 - share) ** 2 + (group.counts.length - 1) * share ** 2)) / n ** 2;
}

/**
 * Size, mean and sample variance of the values voted, from the votes per value (or per bucket, `values` standing for
 * them).
 */
export function sampleOf(values: number[], counts: number[]): Sample {
  const n = totalOf(counts);
  const mean = n > 0 ? values.reduce((sum, value, index) => sum + value * counts[index], 0) / n : 0;
  const squares = values.reduce((sum, value, index) => sum + counts[index] * (value - mean) ** 2, 0);
  return { n, mean, variance: n > 1 ? squares / (n - 1) : 0 };
}

function sampleOfVotes(votes: Counts): Sample {
  return sampleOf([...votes.keys()], [...votes.values()]);
}

const SIGNIFICANCE = 0.05;

/**
 * The variance the noise adds to p1 − p2, where p1 = x/n is a bucket's share in the group and p2
 * its share among everyone else, (e − x)/(N − n): both move with the group's noisy counts, the
 * bucket's own (variance v) and the other buckets' together ((B − 1)·v). By the delta method.
 */
function shareDifferenceNoise(
  x: number,
  n: number,
  e: number,
  everyone: number,
  variance: number,
  buckets: number,
): number {
  const rest = everyone - n;
  const [p1, p2] = [x / n, (e - x) / rest];
  const byOwn = (1 - p1) / n + (1 - p2) / rest;
  const byOthers = p1 / n + p2 / rest;
  return variance * (byOwn ** 2 + (buckets - 1) * byOthers ** 2);
}

/**
 * Each filtered percentage with its 95% margin of error beside everyone's, or for a rating or
 * number the average. A difference is marked significant when the group differs from the other
 * voters (everyone outside the group) at the 95% level. Both count the privacy noise as well as
 * sampling: the noise's variance, carried into each share and average by the delta method, is
 * added to the margins and to the tests, so noise alone does not make a difference significant.
 * Everyone's counts are those that may be published (publicCounts), so no mark tells more of them.
 */
export function compareWithEveryone(
  kind: QuestionKind,
  labels: string[],
  buckets: Buckets,
  group: ReleasedCounts,
  everyoneVotes: Counts,
): Comparison {
  const { counts, variance } = group;
  const everyone = publicCounts(kind, buckets, everyoneVotes);
  const n = totalOf(counts);
  const all = totalOf(everyone);
  const rest = everyone.map((count, index) => Math.max(0, count - counts[index]));
  const restN = all - n;
  if (kind.type === 'MC') {
    const groupPercents = percentages(counts);
    const everyonePercents = percentages(everyone);
    return {
      rows: kind.keys.map((key, index) => {
        const differenceNoise =
          n > 0 && restN > 0
            ? shareDifferenceNoise(counts[index], n, everyone[index], all, variance, buckets.count)
            : 0;
        return {
          key,
          label: labels[index] ?? String(key),
          percent: groupPercents[index],
          overall_percent: everyonePercents[index],
          margin: Math.round(proportionMargin(counts[index], n, shareNoise(group, index)) * 1000) / 10,
          significant:
            n > 0 &&
            restN > 0 &&
            twoProportionPValue(counts[index], n, rest[index], restN, differenceNoise) < SIGNIFICANCE,
        };
      }),
      average: null,
    };
  }
  // Everyone's average is exact; a group's is counted per bucket (for a number, the middle of each range stands for
  // it).
  const everyoneSample = sampleOfVotes(everyoneVotes);
  const groupSample = variance === 0 ? everyoneSample : sampleOf(buckets.values, counts);
  const restSample = sampleOf(buckets.values, rest);
  if (groupSample.n === 0) return { rows: [], average: null };
  // The mean moves by (value − mean)/n with each bucket's count; the others' mean the opposite way.
  const meanNoise =
    variance * buckets.values.reduce((sum, value) => sum + ((value - groupSample.mean) / groupSample.n) ** 2, 0);
  const differenceNoise =
    restSample.n > 0
      ? variance *
        buckets.values.reduce(
          (sum, value) =>
            sum + ((value - groupSample.mean) / groupSample.n + (value - restSample.mean) / restSample.n) ** 2,
          0,
        )
      : 0;
  return {
    rows: [],
    average: {
      value: roundTo2(groupSample.mean),
      overall: roundTo2(everyoneSample.mean),
      margin: roundTo2(meanMargin(groupSample, meanNoise)),
      significant: restSample.n > 0 && welchPValue(groupSample, restSample, differenceNoise) < SIGNIFICANCE,
    },
  };
}
