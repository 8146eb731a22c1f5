import type { Kysely } from 'kysely';

/**
 * Each day's counts of the site chart are spread over several rows, `(day, shard)`, summed when
 * read (modules/site/activity.ts). In PostgreSQL a transaction holds the lock of a row it updated
 * until it commits, so when every vote, like, question and registration counted on the day's one
 * row, they took turns on it. The shards are a table beside `daily_activity`, which keeps the
 * days counted so far: an instance of the previous version, still running while the new one
 * starts, goes on counting there, and the chart sums both.
 */
export function activityShards() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('daily_activity_shards')
        .addColumn('day', 'text', (col) => col.notNull())
        .addColumn('shard', 'integer', (col) => col.notNull())
        .addColumn('answers', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('questions', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('users', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('likes', 'integer', (col) => col.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('daily_activity_shards_pk', ['day', 'shard'])
        .execute();
    },
  };
}
