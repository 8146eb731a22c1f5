import type { Kysely, SelectQueryBuilder } from 'kysely';
import type { DialectName } from './dialect.js';
import type { Database } from './schema.js';

/** Any number, the same in every instance: the key of the PostgreSQL advisory lock below. */
const STARTUP_LOCK = 7_400_101;

/**
 * Runs `work` (migrating and seeding) in one instance at a time, so that instances started
 * together on a new PostgreSQL database do not seed it twice: the next one finds it seeded.
 * A SQLite file belongs to one server process.
 */
export async function oneInstanceAtATime<T>(
  db: Kysely<Database>,
  dialect: DialectName,
  work: () => Promise<T>,
): Promise<T> {
  if (dialect !== 'postgres') return work();
  // A transaction's lock, held until the transaction ends: it stays on one server connection
  // also behind PgBouncer's transaction pooling. `work` runs on other connections meanwhile.
  return db.transaction().execute(async (trx) => {
    await trx.selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.lit(STARTUP_LOCK)]).as('locked')).execute();
    return work();
  });
}

/**
 * The rows a worker claims: on PostgreSQL locked until its transaction ends, skipping those
 * another instance is claiming, so that no two claim one row. A SQLite file has one writer
 * at a time, so its transaction alone is enough.
 */
export function skippingLockedRows<DB, TB extends keyof DB, O>(
  dialect: DialectName,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? query.forUpdate().skipLocked() : query;
}

/**
 * The rows a transaction is about to change, locked on PostgreSQL until it ends, in the order
 * read: writers that lock rows of one table in one order never wait on each other in a circle.
 * A SQLite file has one writer at a time, so its transaction alone is enough.
 */
export function lockedForUpdate<DB, TB extends keyof DB, O>(
  dialect: DialectName,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? query.forUpdate() : query;
}

/**
 * Runs work that keeps the rows it locks for its whole length, however long: in a transaction on
 * PostgreSQL, so that the locks end with it or with its connection if the process dies; directly
 * on SQLite, where a transaction would hold the one connection, and everyone, for as long.
 */
export function holdingLocks<T>(
  db: Kysely<Database>,
  dialect: DialectName,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return dialect === 'postgres' ? db.transaction().execute(work) : work(db);
}
