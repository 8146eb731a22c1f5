/**
 * When a filtered result may be shown without revealing how anyone voted (docs/insights.md).
 *
 * One result alone shows a group of at least k people. Two results side by side show more: every
 * response carries everyone's result too, and from the results of groups A and B and of everyone,
 * the votes of each part of their Venn diagram (in both, in A only, in B only, in neither) follow
 * as soon as one of those parts is empty: B inside A, the two apart, or the two covering everyone.
 * So a group is shown only when, against every group anyone may be shown beside it, each part
 * that would follow holds nobody or at least k people; of two groups that fail this together,
 * only the broader is shown.
 */
import type { Gender } from '@pollscope/contract';
import { AGE_BANDS, type BandRange } from './ages.js';

export const GENDERS: readonly Gender[] = ['F', 'M'];

/** Voters per gender (in the order of GENDERS) and age band. */
export type VoterCounts = number[][];

export function emptyCounts(): VoterCounts {
  return GENDERS.map(() => new Array<number>(AGE_BANDS.length).fill(0));
}

/** The voters a breakdown filter matches: a gender (or both), a range of age bands, a country (or all). */
export interface Box {
  gender: Gender | null;
  bands: BandRange;
  country: number | null;
}

/**
 * Voters per gender and band, by country: null holds every country together. It must hold the
 * country of every box asked about.
 */
export type Population = ReadonlyMap<number | null, VoterCounts>;

/** Whether voters of a gender and age band are in a box (whatever their country). */
export function inBox(box: Box, gender: Gender, band: number): boolean {
  return (box.gender === null || box.gender === gender) && band >= box.bands.first && band <= box.bands.last;
}

export function sizeOf(box: Box, population: Population): number {
  const counts = population.get(box.country);
  if (!counts) throw new Error(`No voter counts for country ${box.country}`);
  let size = 0;
  GENDERS.forEach((gender, index) => {
    for (let band = 0; band < AGE_BANDS.length; band += 1) if (inBox(box, gender, band)) size += counts[index][band];
  });
  return size;
}

/** The voters two boxes both match, or null when no voter can be in both. */
function intersection(a: Box, b: Box): Box | null {
  if (a.gender !== null && b.gender !== null && a.gender !== b.gender) return null;
  if (a.country !== null && b.country !== null && a.country !== b.country) return null;
  const bands = { first: Math.max(a.bands.first, b.bands.first), last: Math.min(a.bands.last, b.bands.last) };
  if (bands.first > bands.last) return null;
  return { gender: a.gender ?? b.gender, bands, country: a.country ?? b.country };
}

/** 0 (nobody, nothing to learn) or at least k people. */
function noneOrAtLeast(people: number, k: number): boolean {
  return people === 0 || people >= k;
}

/** Every box of a country (or of all countries): each gender or both, each range of whole bands. */
function boxesIn(country: number | null): Box[] {
  const boxes: Box[] = [];
  for (const gender of [null, ...GENDERS]) {
    for (let first = 0; first < AGE_BANDS.length; first += 1) {
      for (let last = first; last < AGE_BANDS.length; last += 1) boxes.push({ gender, bands: { first, last }, country });
    }
  }
  return boxes;
}

/** How many of its three filters a box uses. */
function filtersOf(box: Box): number {
  return Number(box.gender !== null) + Number(box.bands.first > 0 || box.bands.last < AGE_BANDS.length - 1) + Number(box.country !== null);
}

/**
 * Of two groups that may not both be shown, the one kept: the one with fewer filters, then the
 * larger, then an arbitrary but fixed order, so that both groups' checks agree on it.
 */
function kept(a: Box, aSize: number, b: Box, bSize: number): Box {
  const order = (box: Box, size: number) => [filtersOf(box), -size, box.gender === null ? -1 : GENDERS.indexOf(box.gender), box.bands.first, box.bands.last, box.country ?? -1];
  const [left, right] = [order(a, aSize), order(b, bSize)];
  const difference = left.findIndex((value, index) => value !== right[index]);
  return difference === -1 || left[difference] < right[difference] ? a : b;
}

/**
 * Whether a group may be shown. It is checked against every box of the countries the population
 * holds: the caller gives every country where a box could make a small part follow (breakdown.ts
 * finds them), and every other country's boxes are either apart from the group with at least k
 * people outside both, or differ from it by at least k people. Of two groups that may not both be
 * shown, the one with more filters (or else the smaller) is hidden.
 */
export function breakdownShown(group: Box, population: Population, everyone: number, k: number): boolean {
  const size = sizeOf(group, population);
  // A group that is everyone shows what the question's own result shows.
  if (size === everyone) return true;
  if (size < k) return false;
  for (const country of population.keys()) {
    for (const other of boxesIn(country)) {
      const otherSize = sizeOf(other, population);
      // A box that is never shown teaches nothing; everyone's result always is.
      if (otherSize !== everyone && (otherSize < k || !noneOrAtLeast(everyone - otherSize, k))) continue;
      const common = intersection(group, other);
      const both = common ? sizeOf(common, population) : 0;
      const parts = [both, size - both, otherSize - both, everyone - size - otherSize + both];
      if (parts.includes(0) && !parts.every((part) => noneOrAtLeast(part, k)) && kept(group, size, other, otherSize) === other) return false;
    }
  }
  return true;
}

/**
 * Which choices of a relate's second question may have their voters shown the first question's
 * result. Each shown group is at least k people (or all the first question's voters), and so are
 * the first question's voters outside every shown group, whose result anyone would get by taking
 * the shown groups from the first question's own result: while they are 1 to k − 1, the smallest
 * shown group is hidden too.
 */
export function relateRowsShown(rowSizes: number[], firstVoters: number, k: number): boolean[] {
  const shown = rowSizes.map((size) => size === firstVoters || size >= k);
  let outside = firstVoters - rowSizes.reduce((total, size, index) => total + (shown[index] ? size : 0), 0);
  while (outside > 0 && outside < k) {
    const smallest = rowSizes.reduce((best, size, index) => (shown[index] && (best === -1 || size < rowSizes[best]) ? index : best), -1);
    if (smallest === -1) break;
    shown[smallest] = false;
    outside += rowSizes[smallest];
  }
  return shown;
}
