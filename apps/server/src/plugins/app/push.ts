import type { NotificationKind } from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter } from 'prom-client';
import type { DialectName } from '../../db/dialect.js';
import type { Db } from '../../db/index.js';
import { METRIC_PREFIX } from '../../lib/metrics.js';
import { notificationPush } from '../../modules/notifications/index.js';
import { startOutboxWorker } from '../../modules/outbox/index.js';
import {
  createPushSender,
  keptVapidKeys,
  PUSH_TTL_SECONDS,
  pushOutbox,
  removeGoneSubscription,
  withJoinedPushes,
  type PushMessage,
  type PushOutcome,
  type PushRow,
  type PushSender,
} from '../../modules/push/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    push: {
      /** The public VAPID key browsers subscribe with (base64url). */
      publicKey: string;
      /**
       * Sends every push due at `at` (now by default), one after another, once the round under way
       * has ended; returns how many it tried. The worker runs it every second; tests run it too.
       */
      round(at?: Date): Promise<number>;
    };
  }
}

/**
 * A milestone of votes can wait for the device to be on power and Wi-Fi (RFC 8030 §5.3); what people did to the person
 * cannot.
 */
const URGENCY: Record<NotificationKind, PushMessage['urgency']> = {
  follow: 'normal',
  like: 'normal',
  votes: 'low',
  moderation: 'normal',
};

/**
 * Sends a claimed push, its notification as it stands at `now`; says it is not to be sent when its person no longer
 * sees the notification.
 */
const sendPush =
  (sender: PushSender, dialect: DialectName) =>
  async (row: PushRow, held: Db, now: Date): Promise<PushOutcome | { kind: 'not shown' }> => {
    const subscription = await withJoinedPushes(held, dialect, row);
    let payload: Awaited<ReturnType<typeof notificationPush>>;
    try {
      payload = await notificationPush(held, subscription.user_id, row.notification_id);
    } catch (error) {
      // Retried, then given up, like a refused push: a notification that cannot be put in words must not stop every
      // push after it.
      return { kind: 'failed', error: `The notification could not be read: ${(error as Error).message}` };
    }
    if (!payload) return { kind: 'not shown' };
    const age = Math.max(0, (now.getTime() - Date.parse(row.created_at)) / 1000);
    // One topic per notification: a push service still holding an earlier push of it for the device keeps only the
    // newest.
    return sender.send(subscription, {
      payload,
      ttlSeconds: Math.round(Math.max(0, PUSH_TTL_SECONDS - age)),
      urgency: URGENCY[payload.kind],
      topic: `n${row.notification_id}`,
    });
  };

/**
 * Web push in each instance: the VAPID key (configured, or the one kept in the database), and the
 * outbox worker that sends the pushes. A subscription its push service says is gone is removed. The
 * worker stops, its push in hand sent or left to retry, when the app closes.
 */
export const pushPlugin = fp(
  async (app: FastifyInstance) => {
    const { db, dialect, config, log } = app;
    const keys = config.vapidKeys ?? (await keptVapidKeys(db));
    const sender = createPushSender({ ...keys, subject: config.vapidSubject }, config.pushAllowPrivateEndpoints);
    const removed = new Counter({
      name: `${METRIC_PREFIX}push_subscriptions_removed_total`,
      help: 'Subscriptions this instance removed because their push service answered 404 or 410',
      registers: [app.metrics],
    });
    const worker = startOutboxWorker(app, {
      name: 'push',
      words: { one: 'push', several: 'Pushes', taker: 'a push service' },
      outbox: pushOutbox,
      send: sendPush(sender, dialect),
      logged: (row) => ({ pushId: row.id }),
      // Removed once the row's lock is let go: two instances each holding a row of the subscription would otherwise
      // wait on each other's.
      async settle({ row, outcome }) {
        if (outcome.kind !== 'gone' || !(await removeGoneSubscription(db, row.subscription_id))) return;
        removed.inc();
        log.info({ subscriptionId: row.subscription_id }, 'push: the subscription is gone (404 or 410), removed');
      },
    });
    app.decorate('push', { publicKey: keys.publicKey, round: async (at?: Date) => (await worker.round(at)).length });
    app.addHook('onClose', async () => {
      await worker.stop();
      sender.close();
    });
  },
  { name: 'push', dependencies: ['metrics'], decorators: { fastify: ['config', 'db', 'dialect'] } },
);
