import type { FastifyInstance } from 'fastify';

/**
 * Once the app is closing, every answer still sent ends its connection (`Connection: close`).
 * Fastify closes the connections idle when closing begins, but one busy then would stay open
 * after its answer, kept alive by the client (nginx keeps connections to an instance for a
 * minute), and the process would wait for it instead of exiting once its requests are answered.
 */
export function registerDrainOnClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
}
