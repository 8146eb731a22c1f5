import type { Generated, Kysely, Selectable } from 'kysely';
import type { DialectName } from '../../db/dialect.js';
import { holdingLocks, skippingLockedRows } from '../../db/locks.js';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/schema.js';

/** The tables that hold something to send: a row each, written in the transaction of what it tells. */
export type OutboxTableName = 'mail_outbox' | 'push_outbox';

/** The columns every outbox table has, whatever else it keeps of what it sends. */
interface OutboxColumns {
  id: Generated<number>;
  created_at: string;
  due_at: string;
  attempts: Generated<number>;
  last_error: string | null;
  given_up_at: string | null;
}

/** An outbox: its table, and the wait before each retry, in minutes; a row that fails once more is given up. */
export interface Outbox<T extends OutboxTableName> {
  table: T;
  retryDelaysMinutes: readonly number[];
}

/** A row of the outbox table `T`: its own columns, the shared ones known whatever `T` is. */
export type OutboxRow<T extends OutboxTableName> = Selectable<Database[T]> & Selectable<OutboxColumns>;

/** A send that did not go through, to retry later. */
export interface Failed {
  kind: 'failed';
  error: string;
}

/**
 * What came of one due row: done (sent, or not to be sent at all, as its sender says), or failed, to retry at
 * `retryAt` or given up (null).
 */
export type Attempt<T extends OutboxTableName, Done extends { kind: string }> =
  { row: OutboxRow<T>; outcome: Done } | { row: OutboxRow<T>; outcome: Failed; retryAt: string | null };

/** What sends a claimed row, reading through `held`, the connection that holds its lock. */
export type Send<T extends OutboxTableName, Done extends { kind: string }> = (
  row: OutboxRow<T>,
  held: Db,
) => Promise<Done | Failed>;

/** Every outbox table seen through the columns they share, so that one query serves them all. */
const outboxTables = (db: Db) => db as unknown as Kysely<Record<OutboxTableName, OutboxColumns>>;

const minutesAfter = (now: Date, minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

const isFailed = (outcome: { kind: string }): outcome is Failed => outcome.kind === 'failed';

/**
 * Sends the outbox's next due row, or returns null when none is due. On PostgreSQL its row stays
 * locked until the send is recorded, so that other instances skip it, and an instance that dies
 * mid-send lets it go at once; a SQLite file has one server, whose worker sends one row at a time.
 * A crash after the send and before it is recorded sends it once more. A row done is forgotten:
 * the outbox keeps no one's words longer than it must.
 */
export async function sendDue<T extends OutboxTableName, Done extends { kind: string }>(
  db: Db,
  dialect: DialectName,
  outbox: Outbox<T>,
  send: Send<T, Done>,
  now = new Date(),
): Promise<Attempt<T, Done> | null> {
  return holdingLocks(db, dialect, async (held): Promise<Attempt<T, Done> | null> => {
    const row = (await skippingLockedRows(
      dialect,
      outboxTables(held)
        .selectFrom(outbox.table as OutboxTableName)
        .selectAll()
        .where('given_up_at', 'is', null)
        .where('due_at', '<=', now.toISOString())
        .orderBy('due_at')
        .orderBy('id')
        .limit(1),
    ).executeTakeFirst()) as OutboxRow<T> | undefined;
    if (!row) return null;
    const outcome = await send(row, held).catch((failure: unknown): Failed => ({
      kind: 'failed',
      error: failure instanceof Error ? failure.message : String(failure),
    }));
    if (isFailed(outcome)) return { row, outcome, retryAt: await markFailed(held, outbox, row, outcome.error, now) };
    await outboxTables(held)
      .deleteFrom(outbox.table as OutboxTableName)
      .where('id', '=', row.id)
      .execute();
    return { row, outcome };
  });
}

/**
 * Counts a failed attempt: the row waits its next delay, and returns when it is due again, or is
 * given up past the last, and returns null. Given-up rows stay, for an operator to look into.
 */
export async function markFailed(
  db: Db,
  outbox: Outbox<OutboxTableName>,
  row: { id: number; attempts: number },
  error: string,
  now = new Date(),
): Promise<string | null> {
  const attempts = row.attempts + 1;
  const delay = outbox.retryDelaysMinutes.at(attempts - 1);
  const retryAt = delay === undefined ? null : minutesAfter(now, delay);
  await outboxTables(db)
    .updateTable(outbox.table as OutboxTableName)
    .set({
      attempts,
      last_error: error.slice(0, 1000),
      ...(retryAt ? { due_at: retryAt } : { given_up_at: now.toISOString() }),
    })
    .where('id', '=', row.id)
    .execute();
  return retryAt;
}

/**
 * The rows waiting to be sent (not given up), since when the oldest has waited (null when none), and those given up.
 */
export async function outboxBacklog(
  db: Db,
  outbox: Outbox<OutboxTableName>,
): Promise<{ waiting: number; oldestCreatedAt: string | null; givenUp: number }> {
  const row = await outboxTables(db)
    .selectFrom(outbox.table)
    .select((eb) => [
      eb.fn.count<number>(eb.case().when('given_up_at', 'is', null).then(1).end()).as('waiting'),
      eb.fn.min(eb.case().when('given_up_at', 'is', null).then(eb.ref('created_at')).end()).as('oldest'),
      eb.fn.count<number>('given_up_at').as('given_up'),
    ])
    .executeTakeFirstOrThrow();
  return { waiting: Number(row.waiting), oldestCreatedAt: row.oldest, givenUp: Number(row.given_up) };
}
