import type { Kysely } from 'kysely';

/**
 * A push subscription belongs to the session whose token made it: `session_token_hash` refers to
 * `sessions` on delete cascade, so that whatever ends a session (signing out, lapsing, a new
 * password, a suspension, deleting the account) ends its subscriptions, and the pushes waiting
 * for them, in the same statement. Indexed, as every deleted session looks its subscriptions up.
 *
 * Subscriptions kept before have no session (null) and stay: dropping them would silently stop
 * push on devices whose switch still shows it on, and the web app does not subscribe again by
 * itself. They end at the person's next new password or suspension, which end every other
 * session too; signing out on such a device ends its subscription in the browser, and the push
 * service's `410` then removes it here.
 */
export function pushSessions() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      // SQLite adds a column with a reference only when it may be null.
      await db.schema
        .alterTable('push_subscriptions')
        .addColumn('session_token_hash', 'text', (col) => col.references('sessions.token_hash').onDelete('cascade'))
        .execute();
      await db.schema
        .createIndex('push_subscriptions_by_session')
        .on('push_subscriptions')
        .column('session_token_hash')
        .execute();
    },
  };
}
