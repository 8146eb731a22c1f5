import { sql, type Kysely } from 'kysely';
import type { DialectName } from '../dialect.js';

/**
 * On PostgreSQL, one `tsvector` per match level of search (db/search-index.ts), each with its
 * own GIN index, in place of one column whose words were weighed by where they stood. A GIN
 * index holds no weights, and the planner's estimate of a weighed query counted the word
 * anywhere: for a word that is in few titles but many choices, it walked every question
 * instead of asking the index. Words of the title alone, of the title and tags, and of
 * everything now each have their column, their index and their statistics. SQLite's FTS5 table
 * answers each level by its columns already: nothing changes there.
 */
export function searchWordsByLevel(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      await sql`alter table question_search_documents drop column document`.execute(db);
      await sql`alter table question_search_documents
        add column title_words tsvector generated always as (to_tsvector('simple', search_unaccent(title))) stored,
        add column title_and_tag_words tsvector generated always as (to_tsvector('simple', search_unaccent(title || ' ' || tags))) stored,
        add column all_words tsvector generated always as (to_tsvector('simple', search_unaccent(title || ' ' || tags || ' ' || choices))) stored`.execute(
        db,
      );
      for (const column of ['title_words', 'title_and_tag_words', 'all_words'])
        await sql`create index ${sql.id(`question_search_by_${column}`)} on question_search_documents using gin (${sql.id(column)})`.execute(
          db,
        );
      // The planner chooses between the index and the newest questions first by these columns' statistics.
      await sql`analyze question_search_documents`.execute(db);
    },
  };
}
