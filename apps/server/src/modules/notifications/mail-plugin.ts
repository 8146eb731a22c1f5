import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { mailDueNotifications } from './mail.js';

/**
 * Each instance looks for people due a notification mail a tenth of EMAIL_BATCH_SECONDS apart,
 * between a second and a minute: a mail comes at most that much after its window ends.
 */
const lookEveryMs = (batchSeconds: number) => Math.min(60, Math.max(1, batchSeconds / 10)) * 1000;

/** Queues notification mail in every instance; the mail worker sends it. Stops when the app closes. */
export const notificationMailPlugin = fp(
  async (app: FastifyInstance) => {
    const { db, config, log } = app;
    let closing = false;
    let timer: NodeJS.Timeout | undefined;
    let round: Promise<void> = Promise.resolve();

    const look = () => {
      round = mailDueNotifications(db, config)
        .then(
          (mailed) => {
            if (mailed > 0) log.info({ mailed }, 'notification mail queued');
          },
          (error: unknown) => log.warn({ err: error }, 'notification mail: reading or writing failed, will look again'),
        )
        .finally(() => {
          if (!closing) timer = setTimeout(look, lookEveryMs(config.emailBatchSeconds));
        });
    };

    app.addHook('onReady', async () => look());
    app.addHook('onClose', async () => {
      closing = true;
      clearTimeout(timer);
      await round;
    });
  },
  { name: 'notification-mail', dependencies: ['mail'], decorators: { fastify: ['config', 'db'] } },
);
