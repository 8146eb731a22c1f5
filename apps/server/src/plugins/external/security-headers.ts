import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';

/**
 * Helmet's security headers on every answer, Content-Security-Policy included. Built once:
 * the Fastify wrapper builds Helmet anew on every request (to allow options per route, which
 * this app does not use), re-reading the whole policy each time.
 */
export const securityHeadersPlugin = fp(
  async (app: FastifyInstance) => {
    const applyHeaders = helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          imgSrc: ["'self'", 'data:'],
          styleSrc: ["'self'", "'unsafe-inline'"],
          scriptSrc: ["'self'"],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          upgradeInsecureRequests: null,
        },
      },
    });
    app.addHook('onRequest', (request, reply, done) =>
      applyHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined)),
    );
  },
  { name: 'security-headers' },
);
