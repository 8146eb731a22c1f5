import { sql, type Kysely } from 'kysely';
import { withIdColumn, type DialectName } from '../dialect.js';

/**
 * Web push. `push_subscriptions`: each device a person turned push on for, one row per endpoint
 * (the push service's URL for that device), gone with the person. `push_outbox`: a notification to
 * push to one subscription, written in the transaction that creates the notification (or adds a
 * like to it) and deleted once pushed; the payload is read when it is sent, so that it names the
 * people it names then. `vapid_keys`: the server's key pair when VAPID_PUBLIC_KEY and
 * VAPID_PRIVATE_KEY are unset, made once by whichever instance starts first (one row, id 1).
 */
export function push(dialect: DialectName) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await withIdColumn(dialect, db.schema.createTable('push_subscriptions'))
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('endpoint', 'text', (col) => col.notNull().unique())
        .addColumn('p256dh', 'text', (col) => col.notNull())
        .addColumn('auth', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema
        .createIndex('push_subscriptions_by_user')
        .on('push_subscriptions')
        .columns(['user_id', 'id'])
        .execute();

      await withIdColumn(dialect, db.schema.createTable('push_outbox'))
        .addColumn('subscription_id', 'integer', (col) =>
          col.notNull().references('push_subscriptions.id').onDelete('cascade'),
        )
        .addColumn('notification_id', 'integer', (col) =>
          col.notNull().references('notifications.id').onDelete('cascade'),
        )
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('due_at', 'text', (col) => col.notNull())
        .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
        .addColumn('last_error', 'text')
        .addColumn('given_up_at', 'text')
        .execute();
      // The rows still to push, which each instance's worker reads every second.
      await db.schema
        .createIndex('push_outbox_due')
        .on('push_outbox')
        .column('due_at')
        .where(sql.ref('given_up_at'), 'is', null)
        .execute();
      // The rows of one notification to one device, which one push sends together; and the deletions that cascade.
      await db.schema
        .createIndex('push_outbox_by_subscription')
        .on('push_outbox')
        .columns(['subscription_id', 'notification_id'])
        .execute();
      await db.schema.createIndex('push_outbox_by_notification').on('push_outbox').column('notification_id').execute();

      await db.schema
        .createTable('vapid_keys')
        .addColumn('id', 'integer', (col) => col.primaryKey())
        .addColumn('public_key', 'text', (col) => col.notNull())
        .addColumn('private_key', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .execute();
    },
  };
}
