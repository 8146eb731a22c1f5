import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import { holdingLocks, skippingLockedRows, writeWithoutWaiting, type DialectName } from '../../db/dialect.js';
import type { Db } from '../../db/index.js';
import type { PushOutboxTable, PushSubscriptionTable } from '../../db/schema.js';
import type { PushOutcome } from './sender.js';
import { removeGoneSubscription } from './subscriptions.js';

export type PushRow = Selectable<PushOutboxTable>;
export type SubscriptionRow = Selectable<PushSubscriptionTable>;

/**
 * The wait before each retry, in minutes: a push service down for hours still gets the push once
 * it is back, within the day its message is worth showing (`PUSH_TTL_SECONDS`). A push that fails
 * once more after the last is given up, after about 20 hours.
 */
export const RETRY_DELAYS_MINUTES = [1, 5, 30, 120, 360, 720];

const minutesAfter = (now: Date, minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

/**
 * Writes, in the caller's transaction, a push of the notification to each device of its person:
 * it exists exactly when the notification (or the like joining it) has committed. One statement,
 * which writes nothing for the many people without push.
 */
export async function queuePush(trx: Db, notificationIds: readonly number[]): Promise<void> {
  if (notificationIds.length === 0) return;
  const now = new Date().toISOString();
  // Nothing in the transaction reads what it wrote: it goes with the next statement (db/dialect.ts).
  await writeWithoutWaiting(
    trx,
    trx
      .insertInto('push_outbox')
      .columns(['subscription_id', 'notification_id', 'created_at', 'due_at'])
      .expression((eb) =>
        eb
          .selectFrom('push_subscriptions')
          .innerJoin('notifications', 'notifications.user_id', 'push_subscriptions.user_id')
          // PostgreSQL infers no type for a bare parameter in the rows an `insert … select` writes.
          .select([
            'push_subscriptions.id',
            'notifications.id as notification_id',
            sql<string>`cast(${now} as text)`.as('created_at'),
            sql<string>`cast(${now} as text)`.as('due_at'),
          ])
          .where('notifications.id', 'in', notificationIds),
      ),
  );
}

/**
 * What came of one due push: sent; not sent, as its person does not see the notification (now);
 * its subscription gone (`removed` when this attempt removed it); or failed, to retry at `retryAt`
 * or given up (null).
 */
export type PushAttempt =
  | { row: PushRow; result: 'sent' | 'not shown' }
  | { row: PushRow; result: 'gone'; removed: boolean }
  | { row: PushRow; result: 'failed'; error: string; retryAt: string | null };

/**
 * What the worker does with a claimed push, reading through `db`: sends it, or says it is not to be sent (its
 * notification not shown).
 */
export type Deliver = (
  row: PushRow,
  subscription: SubscriptionRow,
  db: Db,
) => Promise<PushOutcome | { kind: 'not shown' }>;

/**
 * Sends the next due push, or returns null when none is due. Its row is claimed as the mail
 * outbox claims a mail: on PostgreSQL locked until the send is recorded, so that other instances
 * skip it and an instance that dies mid-send lets it go at once; a SQLite file has one server,
 * whose worker sends one push at a time. The other waiting rows of the same notification to the
 * same device (likes that joined it since) are taken with it: its payload, read after they
 * committed, tells of them too, so the device gets one push, not one per like.
 */
export async function sendDuePush(
  db: Db,
  dialect: DialectName,
  deliver: Deliver,
  now = new Date(),
): Promise<PushAttempt | null> {
  const attempt = await holdingLocks(db, dialect, async (held): Promise<PushAttempt | null> => {
    const row = await skippingLockedRows(
      dialect,
      held
        .selectFrom('push_outbox')
        .selectAll()
        .where('given_up_at', 'is', null)
        .where('due_at', '<=', now.toISOString())
        .orderBy('due_at')
        .orderBy('id')
        .limit(1),
    ).executeTakeFirst();
    if (!row) return null;
    await held
      .deleteFrom('push_outbox')
      .where(
        'id',
        'in',
        skippingLockedRows(
          dialect,
          held
            .selectFrom('push_outbox')
            .select('id')
            .where('subscription_id', '=', row.subscription_id)
            .where('notification_id', '=', row.notification_id)
            .where('given_up_at', 'is', null)
            .where('id', '<>', row.id),
        ),
      )
      .execute();
    const subscription = await held
      .selectFrom('push_subscriptions')
      .selectAll()
      .where('id', '=', row.subscription_id)
      .executeTakeFirstOrThrow();
    const outcome = await deliver(row, subscription, held);
    switch (outcome.kind) {
      case 'sent':
      case 'not shown':
        await held.deleteFrom('push_outbox').where('id', '=', row.id).execute();
        return { row, result: outcome.kind };
      case 'gone':
        await held.deleteFrom('push_outbox').where('id', '=', row.id).execute();
        return { row, result: 'gone', removed: false };
      case 'failed':
        return {
          row,
          result: 'failed',
          error: outcome.error,
          retryAt: await markFailed(held, row, outcome.error, now),
        };
    }
  });
  // Removed once this row's lock is let go: two instances each holding a row of the subscription would otherwise wait
  // on each other's.
  if (attempt?.result === 'gone')
    return { ...attempt, removed: await removeGoneSubscription(db, attempt.row.subscription_id) };
  return attempt;
}

/**
 * Counts a failed attempt: the push waits its next delay, and returns when it is due again, or is given up past the
 * last, and returns null.
 */
export async function markFailed(db: Db, row: PushRow, error: string, now = new Date()): Promise<string | null> {
  const attempts = row.attempts + 1;
  const delay = RETRY_DELAYS_MINUTES.at(attempts - 1);
  const retryAt = delay === undefined ? null : minutesAfter(now, delay);
  await db
    .updateTable('push_outbox')
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
 * The pushes waiting to be sent (not given up), since when the oldest has waited (null when none), and those given up.
 */
export async function pushBacklog(
  db: Db,
): Promise<{ waiting: number; oldestCreatedAt: string | null; givenUp: number }> {
  const row = await db
    .selectFrom('push_outbox')
    .select((eb) => [
      eb.fn.count<number>(eb.case().when('given_up_at', 'is', null).then(1).end()).as('waiting'),
      eb.fn.min(eb.case().when('given_up_at', 'is', null).then(eb.ref('created_at')).end()).as('oldest'),
      eb.fn.count<number>('given_up_at').as('given_up'),
    ])
    .executeTakeFirstOrThrow();
  return { waiting: Number(row.waiting), oldestCreatedAt: row.oldest, givenUp: Number(row.given_up) };
}
