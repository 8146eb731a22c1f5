import type { Kysely } from 'kysely';

/**
 * A new email waits to be confirmed. `email_change_tokens` holds the SHA-256 hash of the token a
 * confirmation mail carries, with the address it confirms, until it is used or lapses: the
 * account's own email changes only when the link is opened, so that a stolen session cannot move
 * the account to an address its owner does not read.
 */
export function emailChanges() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('email_change_tokens')
        .addColumn('token_hash', 'text', (col) => col.primaryKey())
        .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
        .addColumn('email', 'text', (col) => col.notNull())
        .addColumn('created_at', 'text', (col) => col.notNull())
        .addColumn('expires_at', 'text', (col) => col.notNull())
        .execute();
      await db.schema.createIndex('email_change_tokens_by_user').on('email_change_tokens').column('user_id').execute();
      await db.schema
        .createIndex('email_change_tokens_by_expiry')
        .on('email_change_tokens')
        .column('expires_at')
        .execute();
    },
  };
}
