import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import { api } from '@pollscope/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { TooManyRequestsError } from '../errors.js';

interface Limit {
  /** Requests allowed in one window. */
  max: number;
  windowSeconds: number;
  /** The calls that count against this limit, together: calls that undo each other share it. */
  routes: string[];
}

/** Requests allowed per signed-in user, or per address for someone who is not signed in. */
export const rateLimits = {
  login: { max: 20, windowSeconds: 60, routes: [`POST ${api.login}`] },
  register: { max: 10, windowSeconds: 3600, routes: [`POST ${api.register}`] },
  create: { max: 30, windowSeconds: 3600, routes: [`POST ${api.create}`] },
  answer: { max: 120, windowSeconds: 60, routes: [`POST ${api.answer(':id')}`] },
  like: { max: 120, windowSeconds: 60, routes: [`POST ${api.like(':id')}`, `POST ${api.unlike(':id')}`] },
  follow: {
    max: 60,
    windowSeconds: 60,
    routes: [`POST ${api.follow(':user')}`, `POST ${api.unfollow(':user')}`, `POST ${api.ban(':user')}`, `POST ${api.unban(':user')}`],
  },
} satisfies Record<string, Limit>;

/**
 * Sign-in attempts per email address, from every address together: password guessing spread
 * over many machines still gets only this many tries.
 */
export const loginAttemptsPerAccount = { max: 10, windowSeconds: 15 * 60 };

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

interface RouteLimit {
  /** The body is needed to limit per account, so that limit runs once it is parsed. */
  hook: 'onRequest' | 'preValidation';
  check(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

/** The auth hook has run by now, so a signed-in user is counted as themselves on every device. */
function visitor(request: FastifyRequest): string {
  return request.viewerId !== null ? `user:${request.viewerId}` : `address:${normalizeIP(request.ip)}`;
}

function accountOf(request: FastifyRequest): string | null {
  const body = request.body as { email?: unknown; username?: unknown } | undefined;
  const email = body?.username || body?.email;
  return typeof email === 'string' ? email.trim().toLowerCase() : null;
}

function waitText(seconds: number): string {
  return seconds < 120 ? `${seconds} second${seconds === 1 ? '' : 's'}` : `${Math.ceil(seconds / 60)} minutes`;
}

async function enforce(limiter: Limiter, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const state = await limiter(request);
  if (state.isAllowed) return;
  // A call under two limits shows the one closer to running out.
  const shown = reply.getHeader('x-ratelimit-remaining');
  if (shown === undefined || state.remaining < Number(shown)) {
    reply.header('x-ratelimit-limit', state.max).header('x-ratelimit-remaining', state.remaining).header('x-ratelimit-reset', state.ttlInSeconds);
  }
  if (state.isExceeded) {
    reply.header('retry-after', state.ttlInSeconds);
    throw new TooManyRequestsError(`Too many requests, try again in ${waitText(state.ttlInSeconds)}`);
  }
}

/** Counters live in Redis when there is one, so every instance of the server shares them. */
function redisStore(app: FastifyInstance, url: string): Redis {
  // Commands fail at once while Redis is unreachable, and the limits are then skipped: the app
  // stays up without them rather than going down with its counter store.
  const redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', (error) => app.log.warn({ err: error }, 'rate-limit counters unreachable'));
  app.addHook('onClose', async () => {
    await redis.quit();
  });
  return redis;
}

/** Registers the limits above on their routes; must run before the routes are registered. */
export async function registerRateLimits(app: FastifyInstance): Promise<void> {
  if (!app.config.rateLimits) return;
  await app.register(fastifyRateLimit, {
    global: false,
    skipOnError: true,
    nameSpace: 'pollscope:rate-limit:',
    ...(app.config.redisUrl ? { redis: redisStore(app, app.config.redisUrl) } : {}),
  });

  const byRoute = new Map<string, RouteLimit[]>();
  const add = (route: string, limit: RouteLimit) => byRoute.set(route, [...(byRoute.get(route) ?? []), limit]);
  for (const [name, limit] of Object.entries(rateLimits)) {
    const limiter = app.createRateLimit({ max: limit.max, timeWindow: limit.windowSeconds * 1000, keyGenerator: (request) => `${name}:${visitor(request)}` });
    for (const route of limit.routes) add(route, { hook: 'onRequest', check: (request, reply) => enforce(limiter, request, reply) });
  }
  const perAccount = app.createRateLimit({
    max: loginAttemptsPerAccount.max,
    timeWindow: loginAttemptsPerAccount.windowSeconds * 1000,
    keyGenerator: (request) => `login-account:${accountOf(request)}`,
  });
  add(`POST ${api.login}`, {
    hook: 'preValidation',
    check: async (request, reply) => {
      if (accountOf(request)) await enforce(perAccount, request, reply);
    },
  });

  const attached = new Set<string>();
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      const key = `${method} ${route.url}`;
      for (const { hook, check } of byRoute.get(key) ?? []) {
        route[hook] = [route[hook] ?? []].flat().concat(check);
        attached.add(key);
      }
    }
  });
  // A renamed path must not leave its call without a limit.
  app.addHook('onReady', async () => {
    const missing = [...byRoute.keys()].filter((key) => !attached.has(key));
    if (missing.length > 0) throw new Error(`Rate limits name calls that do not exist: ${missing.join(', ')}`);
  });
}
