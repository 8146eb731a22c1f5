import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../../db/index.js';
import { METRIC_PREFIX } from '../../lib/metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The instance's metrics: each part of the app registers its own here, served at /metrics. */
    metrics: Registry;
  }
}

/** Latency buckets, in seconds, around what the service promises: most calls well under 250 ms. */
const LATENCY_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Counts every request by its route's pattern (`/api/polls/answer/:id/`, never the URL asked,
 * whose ids would make a series per question) and its status, with its time, and the database
 * pool's use. Registered first, so that every other plugin can register its metrics on
 * `app.metrics`.
 */
export const metricsPlugin = fp<{ database: DatabaseHandle }>(
  async (app: FastifyInstance, { database }) => {
    const registry = new Registry();
    app.decorate('metrics', registry);

    const requests = new Histogram({
      name: `${METRIC_PREFIX}http_request_duration_seconds`,
      help: 'Requests answered, by method, route pattern and status, and their time from arrival to the last byte sent',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: LATENCY_BUCKETS,
      registers: [registry],
    });
    app.addHook('onResponse', async (request, reply) => {
      // A call to no route is counted as one series, whatever its URL.
      const route = request.routeOptions.url ?? 'none';
      requests.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });

    new Gauge({
      name: `${METRIC_PREFIX}database_pool_connections`,
      help: 'PostgreSQL connections of the pool, by state (open, idle, most that may open), and requests waiting for one (waiting)',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const use = database.poolUse();
        if (!use) return;
        this.set({ state: 'open' }, use.open);
        this.set({ state: 'idle' }, use.idle);
        this.set({ state: 'max' }, use.max);
        this.set({ state: 'waiting' }, use.waiting);
      },
    });
  },
  { name: 'metrics' },
);
