import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { tokenFrom } from '../../lib/request-session.js';
import { UnauthorizedError } from '../../errors.js';

/** Every call under /api needs a valid token unless its route is marked public. */
export const authPlugin = fp(
  async (app: FastifyInstance) => {
    const { sessions } = app.memory;
    app.decorateRequest('viewerId', null);
    app.decorateRequest('viewerVersion', 0);
    app.decorateRequest('token', null);
    app.decorateRequest('tokenIssuedAt', 0);
    app.addHook('onRequest', async (request, reply) => {
      const route = request.routeOptions.url;
      // Only the API's calls are guarded: a path under /api that is no call (the web app's
      // catch-all answers it) is a 404 with or without a token. The API's documentation is for
      // everyone, like the contract's public calls.
      if (route === undefined || !route.startsWith('/api/') || route.startsWith('/api/docs')) return;
      const token = tokenFrom(request);
      const session = token ? await sessions.find(token, app.config.tokenIdleSeconds) : null;
      if (session !== null) {
        // An answer to a signed-in person may be theirs alone (settings, notifications, their
        // answers in every list): no shared cache may keep it. A route sending the same to
        // everyone (a picture) says so with its own Cache-Control.
        reply.header('cache-control', 'no-store');
        request.viewerId = session.userId;
        request.viewerVersion = session.stateVersion;
        request.token = token;
        request.tokenIssuedAt = session.issuedAt;
      } else if (!request.routeOptions.config.public) {
        throw new UnauthorizedError(token ? 'errors.sessionEnded' : 'errors.signIn');
      }
    });
  },
  { name: 'auth', dependencies: ['memory'] },
);
