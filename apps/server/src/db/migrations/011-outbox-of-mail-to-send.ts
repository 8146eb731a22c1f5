import { sql, type Kysely } from 'kysely';

/**
 * A mail's row is deleted once its server took it, so the outbox holds only mail still to send
 * or given up: the rows already sent go, and with them `sent_at`. A row being sent is held by a
 * lock for the send rather than a claim with an end, so `claimed_until` goes too.
 */
export function outboxOfMailToSend() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.dropIndex('mail_outbox_due').execute();
      await sql`delete from mail_outbox where sent_at is not null`.execute(db);
      await db.schema.alterTable('mail_outbox').dropColumn('sent_at').execute();
      await db.schema.alterTable('mail_outbox').dropColumn('claimed_until').execute();
      await db.schema
        .createIndex('mail_outbox_due')
        .on('mail_outbox')
        .column('due_at')
        .where(sql.ref('given_up_at'), 'is', null)
        .execute();
    },
  };
}
