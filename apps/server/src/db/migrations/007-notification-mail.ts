import type { Kysely } from 'kysely';

/**
 * Notification mail: `notifications_mailed_at` is when a person's last notification mail was
 * queued, and the row an instance claims to mail them, so that no two mail them at once;
 * `unsubscribe_token` is the random token of their mails' unsubscribe link, made with the first.
 */
export function notificationMail() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').addColumn('notifications_mailed_at', 'text').execute();
      await db.schema.alterTable('users').addColumn('unsubscribe_token', 'text').execute();
      await db.schema.createIndex('users_unsubscribe_token').on('users').column('unsubscribe_token').unique().execute();
    },
  };
}
