import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge } from 'prom-client';
import { METRIC_PREFIX } from '../../lib/metrics.js';
import { repeatWhileOpen } from '../../lib/repeat.js';
import { createMailTransport, outboxBacklog, sendDueMail } from '../../modules/mail/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    mail: {
      /**
       * Sends every mail due now, one after another, once the round under way has ended; returns
       * how many it tried. The worker runs it every second; tests run it too, to know that a mail
       * that has not come will not.
       */
      round(): Promise<number>;
    };
  }
}

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

    // Counted so that a test of a server process knows the worker has looked at the outbox since.
    const rounds = new Counter({
      name: `${METRIC_PREFIX}mail_rounds_total`,
      help: 'Rounds of the mail worker that ended, each having sent every mail then due',
      registers: [app.metrics],
    });

    // One round at a time in this instance: a SQLite file's rows are claimed without locks.
    let last: Promise<unknown> = Promise.resolve();
    const round = (closing: () => boolean): Promise<number> => {
      const run = last.then(async () => {
        let tried = 0;
        // Closing is checked before each mail, so that the worker stops between two sends.
        while (!closing()) {
          const attempt = await sendDueMail(db, dialect, transport.send);
          if (attempt === null) break;
          tried += 1;
          if (attempt.error === null) continue;
          const { row, error, retryAt } = attempt;
          if (retryAt)
            log.warn(
              { messageId: row.message_id, attempts: row.attempts + 1, retryAt, error },
              'mail: sending failed, will retry',
            );
          else
            log.error(
              { messageId: row.message_id, attempts: row.attempts + 1, error },
              'mail: sending failed, given up',
            );
        }
        rounds.inc();
        return tried;
      });
      last = run.catch(() => {});
      return run;
    };
    app.decorate('mail', { round: () => round(() => false) });

    const worker = repeatWhileOpen(
      app,
      POLL_MS,
      'mail: reading or updating the outbox failed, will look again',
      async (closing) => {
        await round(closing);
      },
    );

    // Read when scraped, the same on every instance (the outbox is shared); without the database, no value.
    const backlogGauge = (
      name: string,
      help: string,
      value: (backlog: Awaited<ReturnType<typeof outboxBacklog>>) => number,
    ) =>
      new Gauge({
        name: `${METRIC_PREFIX}${name}`,
        help,
        registers: [app.metrics],
        async collect() {
          const backlog = await outboxBacklog(db).catch(() => null);
          if (backlog) this.set(value(backlog));
          else this.reset();
        },
      });
    backlogGauge('mail_outbox_waiting', 'Mail in the outbox neither sent nor given up', (backlog) => backlog.waiting);
    backlogGauge(
      'mail_outbox_oldest_age_seconds',
      'How long the oldest mail waiting has been in the outbox; 0 when none waits',
      (backlog) =>
        backlog.oldestCreatedAt ? Math.max(0, (Date.now() - Date.parse(backlog.oldestCreatedAt)) / 1000) : 0,
    );
    app.addHook('onClose', async () => {
      await worker.stop();
      transport.close();
    });
  },
  { name: 'mail', dependencies: ['metrics'], decorators: { fastify: ['config', 'db', 'dialect'] } },
);
