import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { timingSafeEqual } from 'node:crypto';
import { collectDefaultMetrics, Registry } from 'prom-client';

/**
 * The process's metrics (CPU, memory, heap, event-loop delay, garbage collection), registered once
 * per process: several apps in one process (the tests) share them, as they share the process.
 */
let processMetrics: Registry | null = null;
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics, eventLoopMonitoringPrecision: 10 });
  }
  return processMetrics;
}

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
function carriesToken(request: FastifyRequest, token: string): boolean {
  const given = Buffer.from(String(request.headers.authorization ?? ''));
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * GET /metrics in Prometheus's text format, to loopback callers (the address the request came
 * from, or behind a trusted proxy the one it forwards) and to callers with the metrics token.
 * Anyone else gets the very 404 of a path that does not exist.
 */
export async function metricsRoutes(app: FastifyInstance): Promise<void> {
  const { metricsToken } = app.config;
  app.get(
    '/metrics',
    { schema: { hide: true }, config: { alwaysAnswered: true } },
    async (request: FastifyRequest, reply: FastifyReply) => {
      const allowed = LOOPBACK.test(request.ip) || (metricsToken !== null && carriesToken(request, metricsToken));
      if (!allowed) return reply.callNotFound();
      const merged = Registry.merge([processRegistry(), app.metrics]);
      return reply
        .header('content-type', merged.contentType)
        .header('cache-control', 'no-store')
        .send(await merged.metrics());
    },
  );
}
