import type { DialectName } from '../../db/dialect.js';
import { MAX_ID } from '../../db/pagination.js';
import type { LaggingReads } from '../../db/replicas.js';
import { MATCH_LEVELS, questionsMatching } from '../../db/search-index.js';
import { searchWords } from '../../lib/search-text.js';
import type { Candidate, Skeleton } from '../../views/pipeline.js';
import type { SearchResults } from './search-results.js';

/** Words of a query past these are left out: a question's title holds at most 127 characters. */
const MAX_WORDS = 12;

/** A search's key: its match level's rank above every id of the level below, so keys fall as the list goes on. */
const LEVEL_SPAN = MAX_ID + 1;
/** The largest key a search gives: the best level's rank and the largest id. */
export const SEARCH_MAX_KEY = MATCH_LEVELS.length * LEVEL_SPAN + MAX_ID;

/** The words searched, as the index compares them; none for a query of only punctuation. */
export function queryWords(query: string): string[] {
  return searchWords(query).slice(0, MAX_WORDS);
}

/**
 * The questions matching `words`, best match first and newest first within a match level
 * (db/search-index.ts `MATCH_LEVELS`). Each question's key is its level's rank and its id, which
 * depend on nothing but the question and the words: a page goes on from the last key shown,
 * however many questions were asked since, without a gap or a repeat.
 */
export function matchingQuestions(
  { db, settledMs }: LaggingReads,
  dialect: DialectName,
  kept: SearchResults,
  words: readonly string[],
): Skeleton {
  return async (before, count) => {
    const first = before === null ? 0 : MATCH_LEVELS.length - Math.floor(before / LEVEL_SPAN);
    const below = before === null ? null : before % LEVEL_SPAN;
    const matches = await kept.page(
      `${first} ${below} ${count} ${words.join(' ')}`,
      () => questionsMatching(db, dialect, words, first, below, count),
      settledMs,
    );
    return matches.map(({ level, id }): Candidate => ({ id, key: (MATCH_LEVELS.length - level) * LEVEL_SPAN + id }));
  };
}
