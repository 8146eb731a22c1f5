import { optimalAllocation, type Allocation, type WorkloadEntry } from './allocation.js';
import { BREAKDOWN_RHO } from './budget.js';

/**
 * What a question's breakdown release measures in each epoch. Its votes are counted by four
 * attributes, in this order: the answer (its bucket), gender, age band and country (the
 * countries with voters so far). Masks name sets of them.
 */
export const ANSWER = 1;
export const GENDER = 2;
export const BAND = 4;
export const COUNTRY = 8;
export const GENDERS = 2;
export const BANDS = 7;

/**
 * The tables measured: voters by gender, by age band and by country; each of those by answer;
 * and the full table of answer × gender × band × country, which combined filters need and which
 * ties every table together. The split is worked out with the answers' totals held exact, as a
 * rating's or number's are (everyone's result shows them; a multiple-choice question's shows only
 * whole percentages, and its estimate holds only its number of votes): they cost nothing.
 */
const CANDIDATES = [
  GENDER,
  BAND,
  COUNTRY,
  ANSWER | GENDER,
  ANSWER | BAND,
  ANSWER | COUNTRY,
  ANSWER | GENDER | BAND | COUNTRY,
];

/**
 * What people read, and how much it weighs: each gender's, band's and country's count of voters
 * and its count of each answer (the filters of one attribute, and the splits shown beside them)
 * weigh 1; each cross of two or three attributes by answer, the filters that combine them, 1/4.
 */
export const WORKLOAD: readonly WorkloadEntry[] = [
  { mask: GENDER, weight: 1 },
  { mask: BAND, weight: 1 },
  { mask: COUNTRY, weight: 1 },
  { mask: ANSWER | GENDER, weight: 1 },
  { mask: ANSWER | BAND, weight: 1 },
  { mask: ANSWER | COUNTRY, weight: 1 },
  { mask: ANSWER | GENDER | BAND, weight: 1 / 4 },
  { mask: ANSWER | GENDER | COUNTRY, weight: 1 / 4 },
  { mask: ANSWER | BAND | COUNTRY, weight: 1 / 4 },
  { mask: ANSWER | GENDER | BAND | COUNTRY, weight: 1 / 4 },
];

export function breakdownSizes(answers: number, countries: number): number[] {
  return [answers, GENDERS, BANDS, countries];
}

const allocations = new Map<string, Allocation[]>();

/**
 * The optimal split of a vote's breakdown budget among the tables, for a question of `answers` buckets and an epoch of
 * `countries` countries.
 */
export function breakdownAllocation(answers: number, countries: number): Allocation[] {
  const key = `${answers}:${countries}`;
  let allocation = allocations.get(key);
  if (!allocation) {
    allocation = optimalAllocation(breakdownSizes(answers, countries), CANDIDATES, WORKLOAD, ANSWER, BREAKDOWN_RHO);
    allocations.set(key, allocation);
  }
  return allocation;
}
