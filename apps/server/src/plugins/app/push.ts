import type { NotificationKind } from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge } from 'prom-client';
import { METRIC_PREFIX } from '../../lib/metrics.js';
import { repeatWhileOpen } from '../../lib/repeat.js';
import { notificationPush } from '../../modules/notifications/index.js';
import {
  createPushSender,
  keptVapidKeys,
  pushBacklog,
  sendDuePush,
  type Deliver,
  type PushAttempt,
  type PushMessage,
} from '../../modules/push/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    push: {
      /** The public VAPID key browsers subscribe with (base64url). */
      publicKey: string;
      /**
       * Sends every push due at `at` (now by default), one after another, once the round under way
       * has ended; returns what came of each. The worker runs it every second; tests run it too.
       */
      round(at?: Date): Promise<PushAttempt[]>;
    };
  }
}

/** How often each instance looks for pushes due; a push queued waits about this long. */
const POLL_MS = 1_000;

/**
 * A push is worth showing for a day after what it tells happened: the push service keeps it that long for a device that
 * is off.
 */
export const PUSH_TTL_SECONDS = 24 * 3600;

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
 * Web push in each instance: the VAPID key (configured, or the one kept in the database), and the
 * worker that sends the push outbox, each push held so that no other instance sends it too. A
 * failed push is logged and retried later; a subscription its push service says is gone is
 * removed. The worker stops, its push in hand sent or left to retry, when the app closes.
 */
export const pushPlugin = fp(
  async (app: FastifyInstance) => {
    const { db, dialect, config, log } = app;
    const keys = config.vapidKeys ?? (await keptVapidKeys(db));
    const sender = createPushSender({ ...keys, subject: config.vapidSubject }, config.pushAllowPrivateEndpoints);

    const counter = (name: string, help: string) =>
      new Counter({ name: `${METRIC_PREFIX}${name}`, help, registers: [app.metrics] });
    const sent = counter('push_sent_total', 'Pushes this instance handed to a push service');
    const failures = counter(
      'push_failures_total',
      'Pushes this instance failed to hand over (each retried later, or given up past the last retry)',
    );
    const removed = counter(
      'push_subscriptions_removed_total',
      'Subscriptions this instance removed because their push service answered 404 or 410',
    );

    const sendAt =
      (at: Date): Deliver =>
      async (row, subscription, held) => {
        let payload: Awaited<ReturnType<typeof notificationPush>>;
        try {
          payload = await notificationPush(held, subscription.user_id, row.notification_id);
        } catch (error) {
          // Retried, then given up, like a refused push: a notification that cannot be put in words must not stop every
          // push after it.
          return { kind: 'failed', error: `The notification could not be read: ${(error as Error).message}` };
        }
        if (!payload) return { kind: 'not shown' };
        const age = Math.max(0, (at.getTime() - Date.parse(row.created_at)) / 1000);
        // One topic per notification: a push service still holding an earlier push of it for the device keeps only the
        // newest.
        return sender.send(subscription, {
          payload,
          ttlSeconds: Math.round(Math.max(0, PUSH_TTL_SECONDS - age)),
          urgency: URGENCY[payload.kind],
          topic: `n${row.notification_id}`,
        });
      };

    const record = (attempt: PushAttempt) => {
      const { row } = attempt;
      if (attempt.result === 'sent') sent.inc();
      else if (attempt.result === 'gone') {
        if (!attempt.removed) return;
        removed.inc();
        log.info({ subscriptionId: row.subscription_id }, 'push: the subscription is gone (404 or 410), removed');
      } else if (attempt.result === 'failed') {
        failures.inc();
        const { error, retryAt } = attempt;
        if (retryAt)
          log.warn({ pushId: row.id, attempts: row.attempts + 1, retryAt, error }, 'push: sending failed, will retry');
        else log.error({ pushId: row.id, attempts: row.attempts + 1, error }, 'push: sending failed, given up');
      }
    };

    // One round at a time in this instance: a SQLite file's rows are claimed without locks.
    let last: Promise<unknown> = Promise.resolve();
    const round = (closing: () => boolean, at?: Date): Promise<PushAttempt[]> => {
      const run = last.then(async () => {
        const attempts: PushAttempt[] = [];
        // Closing is checked before each push, so that the worker stops between two sends.
        while (!closing()) {
          const now = at ?? new Date();
          const attempt = await sendDuePush(db, dialect, sendAt(now), now);
          if (attempt === null) break;
          record(attempt);
          attempts.push(attempt);
        }
        return attempts;
      });
      last = run.catch(() => {});
      return run;
    };
    app.decorate('push', { publicKey: keys.publicKey, round: (at?: Date) => round(() => false, at) });

    const worker = repeatWhileOpen(
      app,
      POLL_MS,
      'push: reading or updating the outbox failed, will look again',
      async (closing) => {
        await round(closing);
      },
    );

    // Read when scraped, the same on every instance (the outbox is shared); without the database, no value.
    const backlogGauge = (
      name: string,
      help: string,
      value: (backlog: Awaited<ReturnType<typeof pushBacklog>>) => number,
    ) =>
      new Gauge({
        name: `${METRIC_PREFIX}${name}`,
        help,
        registers: [app.metrics],
        async collect() {
          const backlog = await pushBacklog(db).catch(() => null);
          if (backlog) this.set(value(backlog));
          else this.reset();
        },
      });
    backlogGauge('push_outbox_waiting', 'Pushes in the outbox neither sent nor given up', (backlog) => backlog.waiting);
    backlogGauge(
      'push_outbox_oldest_age_seconds',
      'How long the oldest push waiting has been in the outbox; 0 when none waits',
      (backlog) =>
        backlog.oldestCreatedAt ? Math.max(0, (Date.now() - Date.parse(backlog.oldestCreatedAt)) / 1000) : 0,
    );
    backlogGauge(
      'push_outbox_given_up',
      'Pushes given up after their last retry, kept in the outbox for an operator to look into',
      (backlog) => backlog.givenUp,
    );
    app.addHook('onClose', async () => {
      await worker.stop();
      sender.close();
    });
  },
  { name: 'push', dependencies: ['metrics'], decorators: { fastify: ['config', 'db', 'dialect'] } },
);
