import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { repeatWhileOpen } from '../../lib/repeat.js';
import { mailDueNotifications } from '../../modules/notifications/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    notificationMail: {
      /**
       * Queues the notification mail due at `at` (now by default), once the round under way has
       * ended; returns how many it queued. Each instance runs it on its own; tests run it too, at a
       * time past the batch window, to know that a mail that has not been queued will not be.
       */
      round(at?: Date): Promise<number>;
    };
  }
}

/**
 * Each instance looks for people due a notification mail a tenth of EMAIL_BATCH_SECONDS apart,
 * between a second and a minute: a mail comes at most that much after its window ends.
 */
const lookEveryMs = (batchSeconds: number) => Math.min(60, Math.max(1, batchSeconds / 10)) * 1000;

/** Queues notification mail in every instance, which the mail worker sends; stops when the app closes. */
export const notificationMailPlugin = fp(
  async (app: FastifyInstance) => {
    const { db, dialect, config, log } = app;
    // One round at a time in this instance, as the mail worker's.
    let last: Promise<unknown> = Promise.resolve();
    const round = (at?: Date): Promise<number> => {
      const run = last.then(async () => {
        const mailed = await mailDueNotifications(db, dialect, config, at);
        if (mailed > 0) log.info({ mailed }, 'notification mail queued');
        return mailed;
      });
      last = run.catch(() => {});
      return run;
    };
    app.decorate('notificationMail', { round });
    const looking = repeatWhileOpen(
      app,
      lookEveryMs(config.emailBatchSeconds),
      'notification mail: reading or writing failed, will look again',
      async () => {
        await round();
      },
    );
    app.addHook('onClose', looking.stop);
  },
  { name: 'notification-mail', dependencies: ['mail'], decorators: { fastify: ['config', 'db', 'dialect'] } },
);
