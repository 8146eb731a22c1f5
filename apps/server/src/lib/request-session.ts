import type { FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '@pollscope/contract';
import { UnauthorizedError } from '../errors.js';

/**
 * The session a request carries, as the auth plugin (plugins/app/auth.ts) finds it: what the read pipeline, the route
 * files and the plugin itself read of a request's person.
 */
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

/** The signed-in user of a route that is not public. */
export function viewer(request: FastifyRequest): number {
  if (request.viewerId === null) throw new UnauthorizedError();
  return request.viewerId;
}
