import type { ErrorBody } from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import { visitorLocale } from '../../i18n/locale.js';
import { message } from '../../i18n/messages.js';
import fp from 'fastify-plugin';

/**
 * How long a client refused by a closing instance waits: about as long as a restart, or as a load balancer takes to
 * send it elsewhere.
 */
const CLOSING_RETRY_AFTER_SECONDS = 2;

/**
 * Once the app is closing, a request that still arrives on a connection kept alive is answered
 * 503 with Retry-After (Fastify's own refusal has neither the contract's body nor that header),
 * and every answer still sent ends its connection (`Connection: close`). Fastify closes the
 * connections idle when closing begins, but one busy then would stay open after its answer, kept
 * alive by the client (nginx keeps connections to an instance for a minute), and the process would
 * wait for it instead of exiting once its requests are answered. Registered before every other
 * hook, with Fastify's `return503OnClosing` off.
 */
export const drainOnClosePlugin = fp(
  async (app: FastifyInstance) => {
    let closing = false;
    app.addHook('preClose', async () => {
      closing = true;
    });
    app.addHook('onRequest', async (request, reply) => {
      if (!closing) return;
      const locale = visitorLocale(request.headers);
      const body: ErrorBody = { message: message(locale, 'errors.restarting') };
      return reply
        .code(503)
        .header('retry-after', CLOSING_RETRY_AFTER_SECONDS)
        .header('content-language', locale)
        .send(body);
    });
    app.addHook('onSend', async (_request, reply) => {
      if (closing) reply.header('connection', 'close');
    });
  },
  { name: 'drain-on-close' },
);
