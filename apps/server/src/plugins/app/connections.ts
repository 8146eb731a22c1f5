import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Counter } from 'prom-client';
import { METRIC_PREFIX, registerGauge } from '../../lib/metrics.js';

/**
 * How often at most a failure to accept a connection is logged: when files run out, every connection that arrives
 * fails.
 */
const ACCEPT_FAILURE_LOG_MS = 10_000;

/**
 * Bounds the connections open at once (`MAX_CONNECTIONS`): past it, Node closes a new connection
 * as soon as it is accepted, before reading a byte of it, so that half-sent requests and streams
 * cannot take every file the process may open (EMFILE: then the database, the logs and every
 * other connection fail too). Connections already open, such as a load balancer's kept-alive
 * ones, are still answered, health checks and metrics with them. A failure to accept (EMFILE
 * nonetheless, when other files took the room) is logged, never an uncaught error that would end
 * the process; Node tries again with the next connection.
 */
export const connectionsPlugin = fp(
  async (app: FastifyInstance) => {
    const { server } = app;
    const { maxConnections } = app.config;
    if (maxConnections > 0) server.maxConnections = maxConnections;

    let open = 0;
    server.on('connection', (socket) => {
      open += 1;
      socket.once('close', () => (open -= 1));
    });
    registerGauge(
      app.metrics,
      'connections_open',
      'Connections open on this instance (MAX_CONNECTIONS bounds them)',
      () => open,
    );
    const refused = new Counter({
      name: `${METRIC_PREFIX}connections_refused_total`,
      help: 'Connections closed as soon as they were accepted, because MAX_CONNECTIONS were open',
      registers: [app.metrics],
    });
    server.on('drop', () => refused.inc());

    let lastLoggedAt = -Infinity;
    server.on('error', (error: NodeJS.ErrnoException) => {
      // Before listening, an error is Fastify's to report (listen rejects with it).
      if (!server.listening) return;
      const now = performance.now();
      if (now - lastLoggedAt < ACCEPT_FAILURE_LOG_MS) return;
      lastLoggedAt = now;
      app.log.error(
        { err: error, connectionsOpen: open, maxConnections },
        'accepting a connection failed: lower MAX_CONNECTIONS or raise the open-file limit',
      );
    });
  },
  { name: 'connections', dependencies: ['metrics'] },
);
