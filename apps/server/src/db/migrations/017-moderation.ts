import { sql, type Kysely } from 'kysely';
import { withIdColumn, type DialectName } from '../dialect.js';

/**
 * Moderation. Every person has a `role` (member, moderator, admin) and, while suspended, the
 * reason and the end (`suspended_until`, null: for ever). A question a moderator removed, or that
 * reports hid, has its `moderation` ('removed' or 'under_review') and the reason its author is
 * shown. `reports` holds each report, open until a moderator decides on its target (`closed_at`,
 * `outcome`); `counts` says whether the reporter's account was a day old, as reports that hide a
 * question must be. `moderation_log` is every action, never changed: a moderator's deleted account
 * leaves its entries with no moderator. A notification of a moderator's action carries the action,
 * the reason and a suspension's end.
 */
export function moderation(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('role', 'text', (col) => col.notNull().defaultTo('member'))
        .execute();
      await db.schema.alterTable('users').addColumn('suspension_reason', 'text').execute();
      await db.schema.alterTable('users').addColumn('suspended_until', 'text').execute();
      await db.schema.alterTable('questions').addColumn('moderation', 'text').execute();
      await db.schema.alterTable('questions').addColumn('moderation_reason', 'text').execute();
      // Each instance reads the few people suspended and questions withheld when it starts.
      await db.schema
        .createIndex('users_suspended')
        .on('users')
        .column('id')
        .where(sql.ref('suspension_reason'), 'is not', null)
        .execute();
      await db.schema
        .createIndex('questions_moderated')
        .on('questions')
        .column('id')
        .where(sql.ref('moderation'), 'is not', null)
        .execute();

      await withIdColumn(dialect, db.schema.createTable('reports'))
        .addColumn('reporter_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('target', 'text', (col) => col.notNull())
        .addColumn('target_id', 'integer', (col) => col.notNull())
        .addColumn('reason', 'text', (col) => col.notNull())
        .addColumn('note', 'text')
        .addColumn('counts', 'integer', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('closed_at', 'text')
        .addColumn('outcome', 'text')
        .execute();
      // One open report per person and target: reporting it again while it is open finds it.
      await db.schema
        .createIndex('reports_open_by_reporter')
        .on('reports')
        .columns(['reporter_id', 'target', 'target_id'])
        .unique()
        .where(sql.ref('closed_at'), 'is', null)
        .execute();
      await db.schema.createIndex('reports_by_target').on('reports').columns(['target', 'target_id']).execute();
      await db.schema.createIndex('reports_by_reporter').on('reports').columns(['reporter_id', 'id']).execute();

      await withIdColumn(dialect, db.schema.createTable('moderation_log'))
        .addColumn('at', 'text', (col) => col.notNull())
        .addColumn('moderator_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
        .addColumn('action', 'text', (col) => col.notNull())
        .addColumn('target', 'text', (col) => col.notNull())
        .addColumn('target_id', 'integer', (col) => col.notNull())
        .addColumn('reason', 'text', (col) => col.notNull())
        .addColumn('until', 'text')
        .execute();
      await db.schema.createIndex('moderation_log_by_moderator').on('moderation_log').column('moderator_id').execute();

      await db.schema.alterTable('notifications').addColumn('moderation_action', 'text').execute();
      await db.schema.alterTable('notifications').addColumn('moderation_reason', 'text').execute();
      await db.schema.alterTable('notifications').addColumn('moderation_until', 'text').execute();
    },
  };
}
