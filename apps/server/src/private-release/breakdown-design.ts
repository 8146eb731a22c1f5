import { optimalAllocation, type Allocation, type WorkloadEntry } from './allocation.js';
import { AGE_BANDS, GENDERS } from './breakdown-cells.js';
import { BREAKDOWN_RHO } from './budget.js';
import { countVariance } from './marginals.js';

/**
 * What a question's breakdown release measures in each epoch. Its votes are counted by four
 * attributes, in this order: the answer (its bucket), gender, age band and country (the
 * countries with voters so far). Masks name sets of them; the genders and age bands themselves,
 * and where a cell of these tables sits, are in breakdown-cells.ts.
 */
export const ANSWER = 1;
export const GENDER = 2;
export const BAND = 4;
export const COUNTRY = 8;

/**
 * What is public of an epoch's votes, and so held exact: who voted is public, and so is each
 * voter's age and country (their statistics page), so the count of voters by age band × country is
 * (and within it the count by band, by country and the number of votes). A rating's or number's
 * count of each answer is public too: everyone's result shows it. A multiple-choice question's
 * result shows only whole percentages, never a choice's count, so its answers' totals are not.
 */
export function publicMarginals(multipleChoice: boolean): number[] {
  return multipleChoice ? [BAND | COUNTRY] : [ANSWER, BAND | COUNTRY];
}

/**
 * The tables measured: voters by gender, each of gender, band and country by answer, and the full
 * table of answer × gender × band × country, which combined filters need and which ties every
 * table together. Voters by band and by country are public, so no budget goes to them.
 */
const CANDIDATES = [GENDER, ANSWER | GENDER, ANSWER | BAND, ANSWER | COUNTRY, ANSWER | GENDER | BAND | COUNTRY];

/**
 * What people read, and how much it weighs: each gender's count of voters and each gender's,
 * band's and country's count of each answer (the filters of one attribute, and the splits shown
 * beside them) weigh 1; each cross of two or three attributes by answer, the filters that combine
 * them, 1/4. Counts of voters by band or country are exact and weigh nothing.
 */
export const WORKLOAD: readonly WorkloadEntry[] = [
  { mask: GENDER, weight: 2 },
  { mask: ANSWER | GENDER, weight: 1 },
  { mask: ANSWER | BAND, weight: 1 },
  { mask: ANSWER | COUNTRY, weight: 1 },
  { mask: ANSWER | GENDER | BAND, weight: 1 / 4 },
  { mask: ANSWER | GENDER | COUNTRY, weight: 1 / 4 },
  { mask: ANSWER | BAND | COUNTRY, weight: 1 / 4 },
  { mask: ANSWER | GENDER | BAND | COUNTRY, weight: 1 / 4 },
];

export function breakdownSizes(answers: number, countries: number): number[] {
  return [answers, GENDERS.length, AGE_BANDS.length, countries];
}

const allocations = new Map<string, Allocation[]>();

/**
 * The optimal split of a vote's breakdown budget among the tables, for a question of `answers`
 * buckets (multiple choice or not) and an epoch of `countries` countries.
 */
export function breakdownAllocation(answers: number, countries: number, multipleChoice: boolean): Allocation[] {
  const key = `${answers}:${countries}:${multipleChoice}`;
  let allocation = allocations.get(key);
  if (!allocation) {
    allocation = optimalAllocation(
      breakdownSizes(answers, countries),
      CANDIDATES,
      WORKLOAD,
      publicMarginals(multipleChoice),
      BREAKDOWN_RHO,
    );
    allocations.set(key, allocation);
  }
  return allocation;
}

/**
 * One part of a release's estimate, independent of the others (an epoch released alone, or the
 * factorized stream's running count): the tables' sizes, the precision of its fit, what it holds
 * exact, and where each of its countries is.
 */
export interface ReleasedPart {
  sizes: number[];
  lambda: Float64Array;
  exactMasks: readonly number[];
  countryIndex: Map<number, number>;
}

/**
 * Which of a group's values each attribute takes: `answers` buckets (1 for one answer's count), genders and bands, and
 * a country or every one.
 */
export interface GroupShape {
  answers: number;
  genders: number;
  bands: number;
  country: number | null;
}

/** The variance of the noise in a group's count, over every part of the release. */
export function groupVariance(parts: readonly ReleasedPart[], shape: GroupShape): number {
  let variance = 0;
  for (const { sizes, lambda, exactMasks, countryIndex } of parts) {
    const countries = shape.country === null ? sizes[3] : countryIndex.has(shape.country) ? 1 : 0;
    if (countries === 0) continue;
    variance += countVariance(sizes, lambda, exactMasks, [shape.answers, shape.genders, shape.bands, countries]);
  }
  return variance;
}
