import type { Kysely } from 'kysely';

/**
 * `mail_outbox.user_id`: the account a mail was written for, the one that had its address then.
 * An address changes hands (a changed email, a deleted account, the address registered again):
 * what waits for it is listed in an account's export only if it was written for that account.
 * Mail queued before this has none, and is listed for no one. An account deleted leaves its
 * mail to other addresses (the notice of a change, to the address it had) with none.
 */
export function mailForAnAccount() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('mail_outbox')
        .addColumn('user_id', 'integer', (col) => col.references('users.id').onDelete('set null'))
        .execute();
      await db.schema.createIndex('mail_outbox_by_user').on('mail_outbox').column('user_id').execute();
    },
  };
}
