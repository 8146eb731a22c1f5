/**
 * When a filtered result may be shown without revealing how one person voted (docs/insights.md).
 * A result is hidden when its group is small, and also when another result anyone can ask for
 * differs from it by a few people only: comparing the two would show how those few voted.
 */
import type { Gender } from '@pollscope/contract';
import { AGE_BANDS, type BandRange } from './ages.js';

/** Votes of one group of voters (a gender and an age band) for one choice. */
export interface Segment {
  gender: Gender;
  band: number;
  choice: number;
  count: number;
}

export interface GroupFilter {
  gender: Gender | null;
  bands: BandRange;
}

export function inGroup(segment: Pick<Segment, 'gender' | 'band'>, filter: GroupFilter): boolean {
  return (filter.gender === null || segment.gender === filter.gender) && segment.band >= filter.bands.first && segment.band <= filter.bands.last;
}

/** 0 (nobody, nothing to learn) or at least k people. */
function noneOrAtLeast(people: number, k: number): boolean {
  return people === 0 || people >= k;
}

/**
 * An age range may leave voters of its group out at either end (a cut) only when those left out
 * are at least k, and so is the nearest band kept: then the range and any range cut elsewhere
 * differ by at least k people.
 */
function ageCutsAreSafe(votersByBand: number[], bands: BandRange, k: number): boolean {
  const sum = (from: number, to: number) => votersByBand.slice(from, to + 1).reduce((total, count) => total + count, 0);
  const nearestKept = (indexes: number[]) => votersByBand[indexes.find((index) => votersByBand[index] > 0) ?? -1] ?? 0;
  const kept = Array.from({ length: bands.last - bands.first + 1 }, (_, offset) => bands.first + offset);
  const below = sum(0, bands.first - 1);
  const above = sum(bands.last + 1, votersByBand.length - 1);
  if (below > 0 && (below < k || nearestKept(kept) < k)) return false;
  if (above > 0 && (above < k || nearestKept([...kept].reverse()) < k)) return false;
  return true;
}

export interface BreakdownGroup {
  /** The segments of the filter's country, or of every country when it names none. */
  scope: Segment[];
  filter: GroupFilter;
  /** Everyone who answered the question. */
  everyone: number;
  /**
   * For a filter over every country: the group's voters in each country that could hold all of
   * the group but fewer than k (the country filter of the same group would differ by those few).
   */
  countryShares: number[];
}

/**
 * Whether a breakdown group may be shown. Every rule compares the group with a result anyone
 * can ask for beside it (everyone; the same filter with an age band more or less; the other
 * gender; the same filter in one country) and hides the group when the two differ by 1 to k − 1
 * people.
 */
export function breakdownShown(group: BreakdownGroup, k: number): boolean {
  const { scope, filter, everyone } = group;
  const members = scope.filter((segment) => inGroup(segment, filter));
  const size = members.reduce((total, segment) => total + segment.count, 0);
  // A group that is everyone shows what the question's own result shows.
  if (size === everyone) return true;
  if (size < k || !noneOrAtLeast(everyone - size, k)) return false;

  const votersByBand = new Array<number>(AGE_BANDS.length).fill(0);
  for (const segment of scope) if (filter.gender === null || segment.gender === filter.gender) votersByBand[segment.band] += segment.count;
  if (!ageCutsAreSafe(votersByBand, filter.bands, k)) return false;

  if (filter.gender === null) {
    for (const gender of ['F', 'M'] as const) {
      const part = members.filter((segment) => segment.gender === gender).reduce((total, segment) => total + segment.count, 0);
      if (!noneOrAtLeast(part, k)) return false;
    }
  }
  return group.countryShares.every((share) => noneOrAtLeast(size - share, k));
}

/**
 * Whether the voters of one choice of a relate's second question may be shown the first
 * question's result: they are at least k, and so are the first question's other voters
 * (whose result anyone gets by comparing with the first question's own result).
 */
export function relateRowShown(rowSize: number, firstVoters: number, k: number): boolean {
  if (rowSize === firstVoters) return true;
  return rowSize >= k && noneOrAtLeast(firstVoters - rowSize, k);
}
