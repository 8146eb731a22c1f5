import { sql, type Kysely } from 'kysely';
import { withIdColumn, type DialectName } from '../dialect.js';

/**
 * What people are told of: someone followed them, liked their question, or their question
 * reached a number of votes. A like joins its question's unread like notification, so one row
 * holds many people: they are its actors, each once. `mailed_at` is for the mail that will
 * gather what is unread.
 */
export function notifications(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withIdColumn(dialect, db.schema.createTable('notifications'))
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('kind', 'text', (col) => col.notNull())
        .addColumn('question_id', 'integer', (col) => col.references('questions.id'))
        .addColumn('count', 'integer')
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('read_at', 'text')
        .addColumn('mailed_at', 'text')
        .execute();
      // A person's list, newest first, and their unread count.
      await db.schema.createIndex('notifications_by_user').on('notifications').columns(['user_id', 'id']).execute();
      await db.schema
        .createIndex('notifications_unread')
        .on('notifications')
        .columns(['user_id', 'id'])
        .where(sql.ref('read_at'), 'is', null)
        .execute();
      // At most one unread like notification per question, which every new like of it joins.
      await db.schema
        .createIndex('notifications_unread_like')
        .on('notifications')
        .columns(['user_id', 'question_id'])
        .unique()
        .where(sql.ref('kind'), '=', sql.lit('like'))
        .where(sql.ref('read_at'), 'is', null)
        .execute();

      await db.schema
        .createTable('notification_actors')
        .addColumn('notification_id', 'integer', (col) =>
          col.notNull().references('notifications.id').onDelete('cascade'),
        )
        .addColumn('actor_id', 'integer', (col) => col.notNull().references('users.id'))
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addPrimaryKeyConstraint('notification_actors_pk', ['notification_id', 'actor_id'])
        .execute();
    },
  };
}
