import { sql, type Kysely } from 'kysely';

/**
 * Reports after a moderator's decision. `users.registered_network` is a hash of the network a person registered from
 * (an IPv4 /24 or IPv6 /48, never the whole address), compared only with other reporters' in the moderation queue;
 * null for accounts made before. `moderation_log.own_question` marks a decision on the moderator's own question, which
 * an admin with no other admin makes. Reports a decision left as they were are called `dismissed` from now on, as
 * their reporters see them.
 */
export function reportDecisions() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('users').addColumn('registered_network', 'text').execute();
      await db.schema
        .alterTable('moderation_log')
        .addColumn('own_question', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await sql`update reports set outcome = 'dismissed' where outcome = 'no_action'`.execute(db);
    },
  };
}
