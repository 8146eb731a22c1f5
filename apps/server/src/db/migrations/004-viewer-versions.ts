import type { Kysely } from 'kysely';

/**
 * A person's `state_version` moves with every change to what they see of their own: their votes,
 * likes, hidden questions, follows, blocks either way and their profile. Each instance keeps the
 * state of the people it serves in memory and checks it against this number, read with the
 * session on every call, so one instance never shows what another has changed.
 */
export function viewerVersions() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('users')
        .addColumn('state_version', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
    },
  };
}
