import type { Kysely } from 'kysely';

/**
 * Releases made from now on are streams of a factorization for continual counting
 * (private-release/factorization.ts): an epoch's tables carry noise that the epochs after it
 * decode together, not alone. `breakdown_epochs.factorized` marks a breakdown epoch of such a
 * stream; `relate_releases.tables` holds a relate epoch's tables when it is one (JSON, as
 * `breakdown_epochs.tables`), null for the epochs released before.
 */
export function factorizedReleases() {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('breakdown_epochs')
        .addColumn('factorized', 'integer', (col) => col.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('relate_releases').addColumn('tables', 'text').execute();
    },
  };
}
