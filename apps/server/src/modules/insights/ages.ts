/**
 * Ages in breakdowns. A voter's age is the age they reach during the current calendar year (UTC),
 * from the birth year their vote was counted under: born in 1990, they count as 36 all through
 * 2026. The tallies record birth years, so this age is exact from them, and everyone moves up a
 * year together on 1 January.
 *
 * Age filters work in the bands surveys use (AGE_BANDS, defined with the release's other
 * attributes): an age range covers every band it touches, so that two ranges a year apart cannot
 * single out the voters of one age (see docs/insights.md).
 */

import { AGE_BANDS, type AgeBand } from '../../private-release/breakdown-cells.js';

export { AGE_BANDS, type AgeBand };

export function currentYear(now = new Date()): number {
  return now.getUTCFullYear();
}

export function ageInYear(birthYear: number, year: number): number {
  return year - birthYear;
}

/** The index of the band an age falls in. */
export function bandOf(age: number): number {
  const index = AGE_BANDS.findIndex((band) => age <= band.max);
  return index === -1 ? AGE_BANDS.length - 1 : index;
}

export interface BandRange {
  /** Index of the first band covered. */
  first: number;
  /** Index of the last band covered. */
  last: number;
}

/** The bands an age range touches: the range widened to whole bands. */
export function bandsTouched(minAge: number, maxAge: number): BandRange {
  return { first: bandOf(minAge), last: bandOf(maxAge) };
}

/** The ages a band range covers. */
export function agesOf(range: BandRange): AgeBand {
  return { min: AGE_BANDS[range.first].min, max: AGE_BANDS[range.last].max };
}
