import { optimalAllocation, type Allocation, type WorkloadEntry } from './allocation.js';
import { RELATE_PAIR_RHO } from './budget.js';

/**
 * What a relate pair's release measures in each epoch. The people who answered both questions are
 * counted by two attributes, in this order: the first question's answer (its bucket) and the
 * second's choice, the question whose choices' voters relate shows. Masks name sets of them.
 */
export const FIRST = 1;
export const SECOND = 2;

/**
 * What is public of an epoch's people, and so held exact: who answered both questions, and so
 * their number. Nothing else of the table is.
 */
export const PUBLIC_MARGINALS = [0];

/**
 * The tables measured: voters by the second's choice, by the first's answer, and the full table,
 * which alone measures how the two are linked.
 */
const CANDIDATES = [SECOND, FIRST, FIRST | SECOND];

/**
 * What people read, and how much it weighs: each choice's count of voters (whether its group is
 * shown, and its `count_sd`) weighs 2, each of its counts of an answer 1. Per epoch a choice's count
 * then has variance 47.1 for two yes-or-no questions, where the full table alone gives 64 (an sd of
 * √(2.97 × 47.1) = 11.8 over the 4 epochs of 400 people), 52.8 (96 alone) for 3 answers by 2
 * choices, 76.9 (192) for 4 by 4 and 60.7 (320) for a rating by 2 choices; a count of one answer
 * among a choice's voters pays for it: 61.7 (48), 78.1 (53.3), 100.5 (60) and 110.4 (60.8). The
 * first's answers' table is given nothing.
 */
export const WORKLOAD: readonly WorkloadEntry[] = [
  { mask: SECOND, weight: 2 },
  { mask: FIRST | SECOND, weight: 1 },
];

export function relateSizes(firstAnswers: number, secondChoices: number): number[] {
  return [firstAnswers, secondChoices];
}

const allocations = new Map<string, Allocation[]>();

/**
 * The optimal split of a vote's budget in one relate pair among the tables, for a first question
 * of `firstAnswers` buckets and a second of `secondChoices` choices.
 */
export function relateAllocation(firstAnswers: number, secondChoices: number): Allocation[] {
  const key = `${firstAnswers}:${secondChoices}`;
  let allocation = allocations.get(key);
  if (!allocation) {
    allocation = optimalAllocation(
      relateSizes(firstAnswers, secondChoices),
      CANDIDATES,
      WORKLOAD,
      PUBLIC_MARGINALS,
      RELATE_PAIR_RHO,
    );
    allocations.set(key, allocation);
  }
  return allocation;
}
