import { sql, type Kysely } from 'kysely';
import type { DialectName } from './dialect.js';
import type { Database } from './schema.js';

/**
 * The full-text index of questions, the one part of search that differs between the databases.
 * Both index the rows of `question_search_documents` (a question's title, tags and choices as
 * text, written in the question's own transaction) by their words, folded to lower case and
 * without accents, and find words by their prefix:
 * - SQLite: an FTS5 table over those rows, whose column filters tell the match levels apart.
 * - PostgreSQL: one `tsvector` per match level that the database computes from them, through
 *   `unaccent`, each with a GIN index (migrations/012-search-words-by-level.ts): the words as they
 *   are (`simple` configuration) and their stems by the text search configuration of the
 *   question's language (`search_config(language)`: `german` for `de`, `simple` for `ja`), so that
 *   "Katzen" finds "Katze" in a German question. What is typed is made a query by `search_query`,
 *   which matches either: the words as typed, and their stems by every configuration in use
 *   (migrations/024-question-languages.ts). SQLite's FTS5 does not stem (docs/i18n.md).
 */

/**
 * How well a question matches the words of a query, best first. A question is found when every
 * word is in its title, tags or choices; it is listed at the best of these it reaches. Each
 * level holds the next: the words together in this order in the title, every word in the title,
 * in the title or tags, anywhere.
 */
export const MATCH_LEVELS = ['phrase', 'title', 'titleOrTags', 'anywhere'] as const;
export type MatchLevel = (typeof MATCH_LEVELS)[number];

/** PostgreSQL's column of the words a level looks in. */
const wordsColumn = {
  phrase: 'title_words',
  title: 'title_words',
  titleOrTags: 'title_and_tag_words',
  anywhere: 'all_words',
} as const;

/**
 * A condition every question at `level` meets, in the database's own query language; `words` are letters and digits
 * only.
 */
function levelQuery(dialect: DialectName, words: readonly string[], level: MatchLevel): string {
  const last = words.length - 1;
  if (dialect === 'postgres') {
    const terms = words.map((word, index) => `'${word}'${index === last ? ':*' : ''}`);
    return terms.join(level === 'phrase' ? ' <-> ' : ' & ');
  }
  if (level === 'phrase') return `{title} : ("${words.join(' ')}" *)`;
  const terms = words.map((word, index) => `"${word}"${index === last ? '*' : ''}`).join(' AND ');
  return level === 'anywhere' ? `(${terms})` : `{${level === 'title' ? 'title' : 'title tags'}} : (${terms})`;
}

/**
 * The levels a search of `words` can list a question at, from `first` on: one word is a phrase of itself, so the title
 * level holds its phrase.
 */
function levelsOf(words: readonly string[], first: number): number[] {
  return MATCH_LEVELS.flatMap((level, index) =>
    index < first || (level === 'phrase' && words.length === 1) ? [] : [index],
  );
}

/** The level just better than `level` that holds anything of its own. */
function levelBefore(words: readonly string[], level: number): number | undefined {
  return levelsOf(words, 0)
    .filter((other) => other < level)
    .at(-1);
}

/** A question found, with the index in `MATCH_LEVELS` of the best level it reaches. */
export interface SearchMatch {
  level: number;
  id: number;
}

/**
 * Up to `count` questions that match `words` (folded, the last one a prefix), best level first
 * and newest first within a level, from the level `first` on: at that level below the id
 * `before`, at the next ones from the newest.
 */
export async function questionsMatching(
  db: Kysely<Database>,
  dialect: DialectName,
  words: readonly string[],
  first: number,
  before: number | null,
  count: number,
): Promise<SearchMatch[]> {
  const levels = levelsOf(words, first);
  if (dialect === 'postgres') return postgresMatching(db, words, levels, first, before, count);
  const found: SearchMatch[] = [];
  for (const level of levels) {
    if (found.length === count) break;
    const own = levelQuery(dialect, words, MATCH_LEVELS[level]);
    const better = levelBefore(words, level);
    const query = better === undefined ? own : `(${own}) NOT (${levelQuery(dialect, words, MATCH_LEVELS[better])})`;
    const below = level === first ? before : null;
    const { rows } = await sql<{ id: number }>`select rowid as id from question_search
      where question_search match ${query}${below === null ? sql`` : sql` and rowid < ${below}`} order by rowid desc limit ${count - found.length}`.execute(
      db,
    );
    for (const { id } of rows) found.push({ level, id });
  }
  return found;
}

/** PostgreSQL's condition that the words of `level` match, at it or better. */
function matchesAt(words: readonly string[], level: number) {
  const name = MATCH_LEVELS[level];
  return sql`${sql.ref(wordsColumn[name])} @@ search_query(${levelQuery('postgres', words, name)})`;
}

/**
 * The newest questions a search on PostgreSQL looks through before it asks the index for the older matches of a level.
 */
const NEWEST_LOOKED_THROUGH = 1_000;

/** The newest questions below an id, looked through: the best level each match reaches, and where the look ended. */
interface NewestLook {
  matches: SearchMatch[];
  /** The oldest id looked at, when older questions are left; null when none are. */
  oldest: number | null;
}

/**
 * PostgreSQL estimates a prefix ("remot:*") to match 2% of the questions, whatever it is, so its
 * planner cannot choose between walking the newest questions until a page is full (best for a
 * common word) and asking the index for every match and sorting them (best for a rare one, which
 * a walk would look for through every question). So the choice is made here: the newest
 * questions are looked through first, in one statement for every level, and only a level they
 * hold less than a page of asks the index for its older matches.
 */
async function postgresMatching(
  db: Kysely<Database>,
  words: readonly string[],
  levels: number[],
  first: number,
  before: number | null,
  count: number,
): Promise<SearchMatch[]> {
  const found: SearchMatch[] = [];
  let look: { below: number | null; found: NewestLook } | null = null;
  for (const level of levels) {
    const below = level === first ? before : null;
    if (look === null || look.below !== below) look = { below, found: await lookThroughNewest(db, words, below) };
    for (const match of look.found.matches) if (match.level === level && found.length < count) found.push(match);
    if (found.length < count && look.found.oldest !== null) {
      const better = levelBefore(words, level);
      // Ordered by an expression the primary key does not give, so that the planner cannot walk it.
      const { rows } = await sql<{ id: number }>`select question_id as id from question_search_documents
        where ${matchesAt(words, level)}${better === undefined ? sql`` : sql` and not ${matchesAt(words, better)}`} and question_id < ${look.found.oldest}
        order by question_id + 0 desc limit ${count - found.length}`.execute(db);
      for (const { id } of rows) found.push({ level, id });
    }
    if (found.length === count) break;
  }
  return found;
}

async function lookThroughNewest(
  db: Kysely<Database>,
  words: readonly string[],
  below: number | null,
): Promise<NewestLook> {
  const levels = levelsOf(words, 0);
  // A question that matches nowhere costs one test; one that does, one per level until its best.
  const bestLevel = sql.join(
    levels.map((level) => sql`when ${matchesAt(words, level)} then ${sql.lit(level)}`),
    sql` `,
  );
  const { rows } = await sql<{ matches: [number, number][] | null; oldest: number | null; looked: string }>`
    select json_agg(json_build_array(level, question_id) order by question_id desc) filter (where level is not null) as matches,
      min(question_id) as oldest, count(*) as looked
    from (
      select question_id, case when not ${matchesAt(words, levels.at(-1)!)} then null ${bestLevel} end as level
      from question_search_documents${below === null ? sql`` : sql` where question_id < ${below}`}
      order by question_id desc limit ${NEWEST_LOOKED_THROUGH}
    ) as newest`.execute(db);
  const [{ matches, oldest, looked }] = rows;
  return {
    matches: (matches ?? []).map(([level, id]) => ({ level, id })),
    oldest: Number(looked) === NEWEST_LOOKED_THROUGH ? oldest : null,
  };
}
