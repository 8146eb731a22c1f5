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
  return [answers, GENDERS, BANDS, countries];
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
