import type { FastifyInstance } from 'fastify';

/**
 * Runs `round` once the app is ready, then again `delayMs` after each round ends, until the app
 * closes; `stop` waits for the round under way. A round that fails is logged as `failure`, and
 * the next comes as usual. `closing` tells a long round to end early.
 */
export function repeatWhileOpen(
  app: FastifyInstance,
  delayMs: number,
  failure: string,
  round: (closing: () => boolean) => Promise<void>,
): { stop(): Promise<void> } {
  let closing = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = round(() => closing)
      .catch((error: unknown) => app.log.warn({ err: error }, failure))
      .finally(() => {
        if (!closing) timer = setTimeout(run, delayMs);
      });
  };
  app.addHook('onReady', async () => run());
  return {
    async stop() {
      closing = true;
      clearTimeout(timer);
      await running;
    },
  };
}
