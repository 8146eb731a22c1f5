import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { repeatWhileOpen } from '../../lib/repeat.js';
import { sendDueMail } from './outbox.js';
import { createMailTransport } from './transport.js';

/** How often each instance looks for mail due; a mail queued waits about this long. */
const POLL_MS = 1_000;

/**
 * Each instance's worker: sends the outbox's due mails one by one, each held so that no other
 * instance sends it too. A failed send is logged and retried later; the worker stops, its
 * mail in hand sent or left to retry, when the app closes.
 */
export const mailPlugin = fp(
  async (app: FastifyInstance) => {
    const { db, dialect, log } = app;
    const transport = createMailTransport(app.config, log);

    const sendDue = async (closing: () => boolean) => {
      // Closing is checked before each mail, so that the worker stops between two sends.
      while (!closing()) {
        const attempt = await sendDueMail(db, dialect, transport.send);
        if (attempt === null) return;
        if (attempt.error === null) continue;
        const { row, error, retryAt } = attempt;
        if (retryAt) log.warn({ messageId: row.message_id, attempts: row.attempts + 1, retryAt, error }, 'mail: sending failed, will retry');
        else log.error({ messageId: row.message_id, attempts: row.attempts + 1, error }, 'mail: sending failed, given up');
      }
    };

    const worker = repeatWhileOpen(app, POLL_MS, 'mail: reading or updating the outbox failed, will look again', sendDue);
    app.addHook('onClose', async () => {
      await worker.stop();
      transport.close();
    });
  },
  { name: 'mail', decorators: { fastify: ['config', 'db', 'dialect'] } },
);
