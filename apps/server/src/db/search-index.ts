import { sql, type Kysely } from 'kysely';
import type { DialectName } from './dialect.js';
import type { Database } from './schema.js';

/**
 * The full-text index of questions, the one part of search that differs between the databases.
 * Both index the rows of `question_search_documents` (a question's title, tags and choices as
 * text, written in the question's own transaction) by their words, folded to lower case and
 * without accents, and find words by their prefix:
 * - SQLite: an FTS5 table over those rows (an external-content index, which SQLite's triggers
 *   keep equal to them), tokenized with `unicode61 remove_diacritics 2`.
 * - PostgreSQL: a `tsvector` column the database computes from them (`simple` configuration,
 *   no stemming, no stop words, through `unaccent`), with a GIN index; the title's words weigh
 *   A, the tags' B, the choices' C.
 */

export async function fullTextIndexOfQuestions(db: Kysely<Database>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql`create extension if not exists unaccent`.execute(db);
    // unaccent() reads a dictionary, so PostgreSQL counts it as able to change; a computed
    // column needs a function that cannot. Its schema is named, so that the function means
    // the same whatever the search path (a restore runs with an empty one).
    const { rows } = await sql<{
      schema: string;
    }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(db);
    const schema = rows[0].schema;
    await sql`create or replace function search_unaccent(text) returns text language sql immutable parallel safe strict
      return ${sql.id(schema, 'unaccent')}(${sql.lit(`${schema}.unaccent`)}::regdictionary, $1)`.execute(db);
    await sql`create table question_search_documents (
      question_id integer primary key references questions (id) on delete cascade,
      title text not null,
      tags text not null,
      choices text not null,
      document tsvector generated always as (
        setweight(to_tsvector('simple', search_unaccent(title)), 'A')
        || setweight(to_tsvector('simple', search_unaccent(tags)), 'B')
        || setweight(to_tsvector('simple', search_unaccent(choices)), 'C')
      ) stored
    )`.execute(db);
    await sql`create index question_search_by_words on question_search_documents using gin (document)`.execute(db);
    return;
  }
  await sql`create table question_search_documents (
    question_id integer primary key references questions (id) on delete cascade,
    title text not null,
    tags text not null,
    choices text not null
  )`.execute(db);
  await sql`create virtual table question_search using fts5 (
    title, tags, choices,
    content = 'question_search_documents', content_rowid = 'question_id',
    tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
  )`.execute(db);
  // A document is written once, with its question, and goes with it (a question's text never changes).
  await sql`create trigger question_search_documents_added after insert on question_search_documents begin
    insert into question_search (rowid, title, tags, choices) values (new.question_id, new.title, new.tags, new.choices);
  end`.execute(db);
  await sql`create trigger question_search_documents_removed after delete on question_search_documents begin
    insert into question_search (question_search, rowid, title, tags, choices) values ('delete', old.question_id, old.title, old.tags, old.choices);
  end`.execute(db);
}

/**
 * How well a question matches the words of a query, best first. A question is found when every
 * word is in its title, tags or choices; it is listed at the best of these it reaches. Each
 * level holds the next: the words together in this order in the title, every word in the title,
 * in the title or tags, anywhere.
 */
export const MATCH_LEVELS = ['phrase', 'title', 'titleOrTags', 'anywhere'] as const;
export type MatchLevel = (typeof MATCH_LEVELS)[number];

/** A condition every question at `level` meets, in the database's own query language; `words` are letters and digits only. */
function levelQuery(dialect: DialectName, words: readonly string[], level: MatchLevel): string {
  const last = words.length - 1;
  if (dialect === 'postgres') {
    const weights = level === 'phrase' || level === 'title' ? 'A' : level === 'titleOrTags' ? 'AB' : '';
    const terms = words.map((word, index) => `'${word}':${index === last ? '*' : ''}${weights}`);
    return terms.join(level === 'phrase' ? ' <-> ' : ' & ');
  }
  if (level === 'phrase') return `{title} : ("${words.join(' ')}" *)`;
  const terms = words.map((word, index) => `"${word}"${index === last ? '*' : ''}`).join(' AND ');
  return level === 'anywhere' ? `(${terms})` : `{${level === 'title' ? 'title' : 'title tags'}} : (${terms})`;
}

/** The condition of the questions at `level` and not at a better one; null for a level that holds nothing of its own. */
function onlyAtLevel(dialect: DialectName, words: readonly string[], level: MatchLevel): string | null {
  const better = MATCH_LEVELS[MATCH_LEVELS.indexOf(level) - 1];
  // One word is a phrase of itself: the title level holds its phrase.
  if (level === 'phrase' && words.length === 1) return null;
  const own = levelQuery(dialect, words, level);
  if (better === undefined || (better === 'phrase' && words.length === 1)) return own;
  const betterQuery = levelQuery(dialect, words, better);
  return dialect === 'postgres' ? `(${own}) & !(${betterQuery})` : `(${own}) NOT (${betterQuery})`;
}

/**
 * Up to `count` ids of the questions that match `words` (folded, the last one a prefix) at
 * `level` and not better, newest first, below the id `before`.
 */
export async function questionsMatchingAt(
  db: Kysely<Database>,
  dialect: DialectName,
  words: readonly string[],
  level: MatchLevel,
  before: number | null,
  count: number,
): Promise<number[]> {
  const query = onlyAtLevel(dialect, words, level);
  if (query === null) return [];
  const { rows } =
    dialect === 'postgres'
      ? await sql<{ id: number }>`select question_id as id from question_search_documents
          where document @@ to_tsquery('simple', search_unaccent(${query}))${before === null ? sql`` : sql` and question_id < ${before}`}
          order by question_id desc limit ${count}`.execute(db)
      : await sql<{ id: number }>`select rowid as id from question_search
          where question_search match ${query}${before === null ? sql`` : sql` and rowid < ${before}`}
          order by rowid desc limit ${count}`.execute(db);
  return rows.map((row) => row.id);
}
