import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createMailTransport, mailOutbox } from '../../modules/mail/index.js';
import { startOutboxWorker } from '../../modules/outbox/index.js';

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

/**
 * Each instance's mail worker: the outbox worker, sending the due mails through the transport
 * (SMTP, or files without it). It stops, its mail in hand sent or left to retry, when the app closes.
 */
export const mailPlugin = fp(
  async (app: FastifyInstance) => {
    const transport = createMailTransport(app.config, app.log);
    const worker = startOutboxWorker(app, {
      name: 'mail',
      words: { one: 'mail', several: 'Mail', taker: 'a mail server' },
      outbox: mailOutbox,
      send: async (row) => {
        await transport.send(row);
        return { kind: 'sent' };
      },
      logged: (row) => ({ messageId: row.message_id }),
    });
    app.decorate('mail', { round: async () => (await worker.round()).length });
    app.addHook('onClose', async () => {
      await worker.stop();
      transport.close();
    });
  },
  { name: 'mail', dependencies: ['metrics'], decorators: { fastify: ['config', 'db', 'dialect'] } },
);
