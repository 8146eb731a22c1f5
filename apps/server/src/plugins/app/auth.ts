import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { SESSION_COOKIE } from '@pollscope/contract';
import { UnauthorizedError } from '../../errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null on a public call made without a token. */
    viewerId: number | null;
    /** The signed-in user's `state_version` as this request found it. */
    viewerVersion: number;
    token: string | null;
    /** When the signed-in user's token was issued (ms since the epoch); 0 on a public call made without a token. */
    tokenIssuedAt: number;
  }
  interface FastifyContextConfig {
    /** Callable without a token (the contract's public calls). */
    public?: boolean;
  }
}

/** The token of the request's `Authorization: Token …` header, if it has one. */
export function tokenFrom(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return null;
  const match = /^Token\s+(\S+)$/i.exec(header.trim());
  return match ? match[1] : null;
}

/** A token as the server issues them (base64url): anything else in the cookie is no session. */
const TOKEN = /^[\w-]{1,200}$/;

/** The session token of the cookie the web app keeps it in, if it holds one. */
export function sessionToken(cookies: string | undefined): string | null {
  for (const pair of cookies?.split(';') ?? []) {
    const separator = pair.indexOf('=');
    if (separator > 0 && pair.slice(0, separator).trim() === SESSION_COOKIE) {
      const value = pair.slice(separator + 1).trim();
      return TOKEN.test(value) ? value : null;
    }
  }
  return null;
}

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

/** The signed-in user of a route that is not public. */
export function viewer(request: FastifyRequest): number {
  if (request.viewerId === null) throw new UnauthorizedError();
  return request.viewerId;
}
