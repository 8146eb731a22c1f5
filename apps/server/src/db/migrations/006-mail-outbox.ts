import { sql, type Kysely } from 'kysely';
import { withIdColumn, type DialectName } from '../dialect.js';

/**
 * The outbox: a mail is a row written in the transaction of what causes it, and each instance's
 * worker sends the rows that are due. A row stays once sent, with `sent_at`, or given up, with
 * `given_up_at` and the last error.
 */
export function mailOutbox(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withIdColumn(dialect, db.schema.createTable('mail_outbox'))
        .addColumn('recipient', 'text', (col) => col.notNull())
        .addColumn('subject', 'text', (col) => col.notNull())
        .addColumn('text', 'text', (col) => col.notNull())
        .addColumn('html', 'text', (col) => col.notNull())
        .addColumn('headers', 'text', (col) => col.notNull())
        .addColumn('message_id', 'text', (col) => col.notNull().unique())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('due_at', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addColumn('claimed_until', 'text')
        .addColumn('sent_at', 'text')
        .addColumn('given_up_at', 'text')
        .execute();
      // Only the rows still to send, which the worker reads every second.
      await db.schema
        .createIndex('mail_outbox_due')
        .on('mail_outbox')
        .column('due_at')
        .where(sql.ref('sent_at'), 'is', null)
        .where(sql.ref('given_up_at'), 'is', null)
        .execute();
    },
  };
}
