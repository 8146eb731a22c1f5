import type { Selectable } from 'kysely';
import { sql } from 'kysely';
import type { DialectName } from '../../db/dialect.js';
import { skippingLockedRows } from '../../db/locks.js';
import { writeWithoutWaiting } from '../../db/pipelining.js';
import type { Db } from '../../db/index.js';
import type { PushSubscriptionTable } from '../../db/schema.js';
import type { Outbox, OutboxRow } from '../outbox/index.js';

export type PushRow = OutboxRow<'push_outbox'>;
export type SubscriptionRow = Selectable<PushSubscriptionTable>;

/**
 * A push is worth showing for a day after what it tells happened: the push service keeps it that long for a device that
 * is off.
 */
export const PUSH_TTL_SECONDS = 24 * 3600;

/**
 * The wait before each retry, in minutes: a push service down for hours still gets the push once
 * it is back, within the day its message is worth showing (`PUSH_TTL_SECONDS`). A push that fails
 * once more after the last is given up, after about 20 hours.
 */
export const RETRY_DELAYS_MINUTES = [1, 5, 30, 120, 360, 720];

/** Pushes to send, one row a notification and device, sent by the outbox worker (`plugins/app/push.ts`). */
export const pushOutbox: Outbox<'push_outbox'> = { table: 'push_outbox', retryDelaysMinutes: RETRY_DELAYS_MINUTES };

/**
 * Writes, in the caller's transaction, a push of the notification to each device of its person:
 * it exists exactly when the notification (or the like joining it) has committed. One statement,
 * which writes nothing for the many people without push.
 */
export async function queuePush(trx: Db, notificationIds: readonly number[]): Promise<void> {
  if (notificationIds.length === 0) return;
  const now = new Date().toISOString();
  // Nothing in the transaction reads what it wrote: it goes with the next statement (db/pipelining.ts).
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
 * Takes with a claimed push the other waiting rows of the same notification to the same device (likes that joined it
 * since): its payload, read after they committed, tells of them too, so the device gets one push, not one per like.
 * Returns the device's subscription.
 */
export async function withJoinedPushes(held: Db, dialect: DialectName, row: PushRow): Promise<SubscriptionRow> {
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
  return held
    .selectFrom('push_subscriptions')
    .selectAll()
    .where('id', '=', row.subscription_id)
    .executeTakeFirstOrThrow();
}
