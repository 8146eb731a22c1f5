import { RELATE_PAIRS_PER_QUESTION } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import { ClockCache, type CacheStats } from '../../lib/clock-cache.js';
import type { QuestionCards } from '../../views/question-cards.js';
import { exploredOf, type ExploredQuestion } from './access.js';
import type { PairTables } from './pair-tables.js';
import { reliable } from './association.js';
import { relateTable } from './relate.js';
import { benjaminiHochberg } from './stats.js';

/** The voters of a question whose other answers are looked at to find candidates: its latest. */
const SAMPLED_VOTERS = 2_000;
/**
 * Candidates tested per question: the multiple-choice questions most of those voters answered.
 * Each pair tested is a relate release, which the first time spends a place of both questions'
 * relate budget (RELATE_PAIRS_PER_QUESTION), so the candidates are half as many as the places.
 */
const CANDIDATES = RELATE_PAIRS_PER_QUESTION / 2;
/**
 * Related questions a viewer is shown at most: every candidate found linked, less those the viewer passed or whose
 * authors a block stands between (rules.ts).
 */
export const RELATED_SHOWN = CANDIDATES;
const FALSE_DISCOVERY_RATE = 0.05;
/** How long a question's related questions are kept before they are found again. */
const LIFE_MS = 10 * 60_000;

export interface RelatedEntry {
  id: number;
  sharedVoters: number;
  cramersV: number;
  pValue: number;
  qValue: number;
}

/** Multiple-choice questions that share the most voters with a question, among its latest voters. */
async function candidatesFor(db: Db, questionId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('votes')
    .innerJoin('questions', 'questions.id', 'votes.question_id')
    .select(['votes.question_id as id', (eb) => eb.fn.countAll<number>().as('shared')])
    .where('votes.user_id', 'in', (eb) =>
      eb
        .selectFrom('votes as latest')
        .select('latest.user_id')
        .where('latest.question_id', '=', questionId)
        .orderBy('latest.seq', 'desc')
        .limit(SAMPLED_VOTERS),
    )
    .where('votes.question_id', '<>', questionId)
    .where('questions.type', '=', 'MC')
    .groupBy('votes.question_id')
    .orderBy('shared', 'desc')
    .orderBy('votes.question_id')
    .limit(CANDIDATES)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The questions whose answers are most strongly linked with a question's, strongest first: each
 * candidate pair is tested on the rows relate may show, from its relate release (a pair whose
 * question has no relate budget left is passed over), only where every expected count is at
 * least 5 and enough people answered both, and kept when it stays significant once the false
 * discovery rate over all the pairs tested is held at 5% (Benjamini–Hochberg).
 */
export async function findRelated(
  db: Db,
  cards: QuestionCards,
  tables: PairTables,
  question: ExploredQuestion,
  k: number,
): Promise<RelatedEntry[]> {
  const tested: Omit<RelatedEntry, 'qValue'>[] = [];
  const candidates = await cards.read(db, await candidatesFor(db, question.id));
  for (const [id, read] of candidates) {
    const result = (await relateTable(tables, question, exploredOf(read), k))?.tested;
    if (!result || !reliable(result.test, true)) continue;
    tested.push({
      id,
      sharedVoters: result.test.n,
      cramersV: result.association.cramers_v,
      pValue: result.test.pValue,
    });
  }
  const qValues = benjaminiHochberg(tested.map((entry) => entry.pValue));
  return tested
    .map((entry, index) => ({ ...entry, qValue: qValues[index] }))
    .filter((entry) => entry.qValue < FALSE_DISCOVERY_RATE)
    .sort((a, b) => b.cramersV - a.cramersV || a.id - b.id);
}

/**
 * Related questions per question, computed at most once per LIFE_MS per server, for at most
 * `maxQuestions` questions: the least used are dropped first.
 */
export class RelatedCache {
  private readonly entries: ClockCache<number, { at: number; related: Promise<RelatedEntry[]> }>;

  constructor(
    private readonly db: Db,
    private readonly cards: QuestionCards,
    private readonly tables: PairTables,
    maxQuestions: number,
  ) {
    this.entries = new ClockCache(maxQuestions);
  }

  /** The questions were deleted, or votes they had: their related questions are found again if asked for. */
  forget(questionIds: readonly number[]): void {
    for (const questionId of questionIds) this.entries.delete(questionId);
  }

  /** What is kept, for the metrics. */
  stats(): CacheStats {
    return this.entries.stats();
  }

  get(question: ExploredQuestion, k: number): Promise<RelatedEntry[]> {
    const cached = this.entries.get(question.id);
    if (cached && Date.now() - cached.at < LIFE_MS) return cached.related;
    const related = findRelated(this.db, this.cards, this.tables, question, k);
    // A failed computation is not kept.
    related.catch(() => this.entries.delete(question.id));
    this.entries.set(question.id, { at: Date.now(), related });
    return related;
  }
}
