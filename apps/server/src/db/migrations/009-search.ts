import { sql, type Kysely } from 'kysely';
import { searchDocumentOf, searchName } from '../../lib/search-text.js';
import type { DialectName } from '../dialect.js';
import type { Database } from '../schema.js';

/**
 * The full-text index of questions over the rows of `question_search_documents`:
 * - SQLite: an FTS5 table over those rows (an external-content index, which SQLite's triggers
 *   keep equal to them), tokenized with `unicode61 remove_diacritics 2`.
 * - PostgreSQL: a `tsvector` column the database computes from them (`simple` configuration,
 *   no stemming, no stop words, through `unaccent`), with a GIN index; the title's words weigh
 *   A, the tags' B, the choices' C (replaced by one column per match level in 012).
 */
async function fullTextIndexOfQuestions(db: Kysely<Database>, dialect: DialectName): Promise<void> {
  if (dialect === 'postgres') {
    await sql`create extension if not exists unaccent`.execute(db);
    // unaccent() reads a dictionary, so PostgreSQL counts it as able to change; a computed
    // column needs a function that cannot. Its schema is named, so that the function means
    // the same whatever the search path (a restore runs with an empty one).
    const { rows } = await sql<{
      schema: string;
    }>`select n.nspname as schema from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(
      db,
    );
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

/** Rows read and written at a time while filling the new columns and tables. */
const BATCH = 1_000;

/**
 * Discovery: questions found by their words, people by their first name, and the votes of the
 * last day counted for what is trending.
 * - `question_search_documents`: each question's title, tags and choices as text, written in the
 *   question's transaction, with the full-text index over them (db/search-index.ts).
 * - `users.search_name`: the first name folded for search, with an index to find its prefixes.
 * - `votes_by_time`: the votes of a time window, with their questions, read from the index alone.
 */
export function search(dialect: DialectName) {
  return {
    async up(untyped: Kysely<unknown>): Promise<void> {
      const db = untyped as unknown as Kysely<Database>;
      await fullTextIndexOfQuestions(db, dialect);
      for (let after = 0; ;) {
        const questions = await db
          .selectFrom('questions')
          .select(['id', 'title', 'choice_labels'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(BATCH)
          .execute();
        if (questions.length === 0) break;
        after = questions[questions.length - 1].id;
        const tags = await db
          .selectFrom('question_tags')
          .select(['question_id', 'tag'])
          .where(
            'question_id',
            'in',
            questions.map((question) => question.id),
          )
          .orderBy('tag')
          .execute();
        const tagsOf = (id: number) => tags.filter((row) => row.question_id === id).map((row) => row.tag);
        await db
          .insertInto('question_search_documents')
          .values(questions.map((question) => searchDocumentOf(question, tagsOf(question.id))))
          .execute();
      }

      // Byte order (PostgreSQL's "C" collation, SQLite's own), so that a name's prefixes are a range of the index.
      await db.schema
        .alterTable('users')
        .addColumn('search_name', 'text', (col) =>
          (dialect === 'postgres' ? col.modifyFront(sql`collate "C"`) : col).notNull().defaultTo(''),
        )
        .execute();
      for (let after = 0; ;) {
        const users = await db
          .selectFrom('users')
          .select(['id', 'first_name'])
          .where('id', '>', after)
          .orderBy('id')
          .limit(BATCH)
          .execute();
        if (users.length === 0) break;
        after = users[users.length - 1].id;
        for (const user of users)
          await db
            .updateTable('users')
            .set({ search_name: searchName(user.first_name) })
            .where('id', '=', user.id)
            .execute();
      }
      await db.schema.createIndex('users_by_search_name').on('users').columns(['search_name', 'id']).execute();

      await db.schema.createIndex('votes_by_time').on('votes').columns(['created_at', 'question_id']).execute();
    },
  };
}
