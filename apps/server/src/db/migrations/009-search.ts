import { sql, type Kysely } from 'kysely';
import { searchDocumentOf, searchName } from '../../lib/search-text.js';
import { fullTextIndexOfQuestions } from '../search-index.js';
import type { DialectName } from '../dialect.js';
import type { Database } from '../schema.js';

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
        const questions = await db.selectFrom('questions').select(['id', 'title', 'choice_labels']).where('id', '>', after).orderBy('id').limit(BATCH).execute();
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
        .addColumn('search_name', 'text', (col) => (dialect === 'postgres' ? col.modifyFront(sql`collate "C"`) : col).notNull().defaultTo(''))
        .execute();
      for (let after = 0; ;) {
        const users = await db.selectFrom('users').select(['id', 'first_name']).where('id', '>', after).orderBy('id').limit(BATCH).execute();
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
