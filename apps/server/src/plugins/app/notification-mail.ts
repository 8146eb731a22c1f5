import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { repeatWhileOpen } from '../../lib/repeat.js';
import { mailDueNotifications } from './mail.js';

/**
 * Each instance looks for people due a notification mail a tenth of EMAIL_BATCH_SECONDS apart,
 * between a second and a minute: a mail comes at most that much after its window ends.
 */
const lookEveryMs = (batchSeconds: number) => Math.min(60, Math.max(1, batchSeconds / 10)) * 1000;

/** Queues notification mail in every instance, which the mail worker sends; stops when the app closes. */
export const notificationMailPlugin = fp(
  async (app: FastifyInstance) => {
    const { db, dialect, config, log } = app;
    const looking = repeatWhileOpen(app, lookEveryMs(config.emailBatchSeconds), 'notification mail: reading or writing failed, will look again', async () => {
      const mailed = await mailDueNotifications(db, dialect, config);
      if (mailed > 0) log.info({ mailed }, 'notification mail queued');
    });
    app.addHook('onClose', looking.stop);
  },
  { name: 'notification-mail', dependencies: ['mail'], decorators: { fastify: ['config', 'db', 'dialect'] } },
);
