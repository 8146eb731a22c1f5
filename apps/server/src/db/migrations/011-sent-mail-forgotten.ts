import { sql, type Kysely } from 'kysely';

/**
 * A mail's row is deleted once its server took it, so the outbox holds only mail still to send
 * or given up: the rows already sent go, and with them `sent_at`.
 */
export function sentMailForgotten() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('mail_outbox_due').execute();
      await sql`delete from mail_outbox where sent_at is not null`.execute(db);
      await db.schema.alterTable('mail_outbox').dropColumn('sent_at').execute();
      await db.schema.createIndex('mail_outbox_due').on('mail_outbox').column('due_at').where(sql.ref('given_up_at'), 'is', null).execute();
    },
  };
}
