import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * PostgreSQL's text search configurations (stemmers) by the ISO 639-1 code of their language, as PostgreSQL names them
 * (`select cfgname from pg_ts_config`); a language without one, or one this server's PostgreSQL lacks, is `simple`:
 * its words as they are, without stemming or stop words (Japanese, Chinese, Korean…). Kept here, as the migration
 * wrote it: another mapping is another migration.
 */
const CONFIGURATIONS: Record<string, string> = {
  ar: 'arabic',
  ca: 'catalan',
  da: 'danish',
  de: 'german',
  el: 'greek',
  en: 'english',
  es: 'spanish',
  eu: 'basque',
  fi: 'finnish',
  fr: 'french',
  ga: 'irish',
  hi: 'hindi',
  hu: 'hungarian',
  hy: 'armenian',
  id: 'indonesian',
  it: 'italian',
  lt: 'lithuanian',
  nb: 'norwegian',
  ne: 'nepali',
  nl: 'dutch',
  nn: 'norwegian',
  no: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

/** A PostgreSQL text search configuration by its name, as a constant. */
const configuration = (name: string) => sql`${sql.lit(name)}::regconfig`;

/**
 * A question's language (CONTRACT.md §7): `questions.language`, the ISO 639-1 code it is written in, chosen when
 * asking; every question asked before is `en`, the only language there was. Its search document carries it too.
 *
 * On PostgreSQL search then stems each question's words by its language (db/search-index.ts): each words column holds
 * the words as before (`simple`, so a word typed in part still finds them) and their stems by the question's
 * configuration (`search_config(language)`), and `search_query(text)` makes a query of what was typed that matches
 * either: the words as typed, the last one as the start of a word, or their stems by any configuration the documents
 * may use, whole. Both functions are made here, from the
 * configurations this PostgreSQL has, and each words column is written again. SQLite's FTS5 index stays as it was.
 */
export function questionLanguages(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('questions')
        .addColumn('language', 'text', (col) => col.notNull().defaultTo('en'))
        .execute();
      await db.schema
        .alterTable('question_search_documents')
        .addColumn('language', 'text', (col) => col.notNull().defaultTo('en'))
        .execute();
      if (dialect !== 'postgres') return;

      const { rows } = await sql<{ name: string }>`select cfgname as name from pg_ts_config`.execute(db);
      const present = new Set(rows.map((row) => row.name));
      const mapped = Object.entries(CONFIGURATIONS).filter(([, name]) => present.has(name));
      const cases = sql.join(
        mapped.map(([code, name]) => sql`when ${sql.lit(code)} then ${configuration(name)}`),
        sql` `,
      );
      await sql`create or replace function search_config(text) returns regconfig language sql immutable parallel safe strict
        return case $1 ${cases} else ${configuration('simple')} end`.execute(db);
      const stemmed = [...new Set(mapped.map(([, name]) => name))].sort();
      // The words as typed, the last one a prefix (`:*`); their stems whole: the stem of a word typed in part is no part
      // of a stem ("quim" is "qu" in Hungarian), and would find words that begin with it in any question of that language.
      const queries = sql.join(
        [
          sql`to_tsquery(${configuration('simple')}, search_unaccent($1))`,
          ...stemmed.map((name) => sql`to_tsquery(${configuration(name)}, search_unaccent(replace($1, ':*', '')))`),
        ],
        sql` || `,
      );
      await sql`create or replace function search_query(text) returns tsquery language sql immutable parallel safe strict
        return ${queries}`.execute(db);

      const words = (text: string) =>
        sql.raw(
          `to_tsvector('simple', search_unaccent(${text})) || to_tsvector(search_config(language), search_unaccent(${text}))`,
        );
      const columns = {
        title_words: words('title'),
        title_and_tag_words: words(`title || ' ' || tags`),
        all_words: words(`title || ' ' || tags || ' ' || choices`),
      };
      await sql`alter table question_search_documents drop column title_words, drop column title_and_tag_words, drop column all_words`.execute(
        db,
      );
      await sql`alter table question_search_documents ${sql.join(
        Object.entries(columns).map(
          ([column, expression]) =>
            sql`add column ${sql.id(column)} tsvector generated always as (${expression}) stored`,
        ),
        sql`, `,
      )}`.execute(db);
      for (const column of Object.keys(columns))
        await sql`create index ${sql.id(`question_search_by_${column}`)} on question_search_documents using gin (${sql.id(column)})`.execute(
          db,
        );
      await sql`analyze question_search_documents`.execute(db);
    },
  };
}
