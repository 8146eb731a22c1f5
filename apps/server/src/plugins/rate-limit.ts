import fastifyRateLimit, { normalizeIP, type FastifyRateLimitStore, type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import { api } from '@pollscope/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
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
  passwordReset: { max: 20, windowSeconds: 3600, routes: [`POST ${api.passwordReset}`] },
  passwordResetConfirm: { max: 20, windowSeconds: 3600, routes: [`POST ${api.passwordResetConfirm}`] },
  exportAccount: { max: 5, windowSeconds: 3600, routes: [`GET ${api.exportAccount}`] },
  deleteAccount: { max: 10, windowSeconds: 3600, routes: [`POST ${api.deleteAccount}`] },
} satisfies Record<string, Limit>;

/**
 * Sign-in attempts per email address, from every address together: password guessing spread
 * over many machines still gets only this many tries.
 */
export const loginAttemptsPerAccount = { max: 10, windowSeconds: 15 * 60 };

/** Links to choose a new password mailed to one address, whoever asks: nobody can fill a mailbox with them. */
export const resetRequestsPerAccount = { max: 5, windowSeconds: 3600 };

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

/** Connection states in which Redis has been lost; while it first connects, counts wait for it. */
const UNREACHABLE = new Set(['reconnecting', 'close', 'end']);

const countScript = `
local current = redis.call('INCR', KEYS[1])
if current == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {current, redis.call('PTTL', KEYS[1])}`;

/** Keys counted in this instance's memory at most: past that, the oldest windows are forgotten. */
const MAX_LOCAL_KEYS = 100_000;

/**
 * Fixed windows counted in this instance's memory, as Redis counts them: while Redis is away each
 * instance counts on its own, so a person gets at most the limit on each instance meanwhile.
 */
class LocalCounters {
  private readonly windows = new Map<string, { current: number; endsAt: number }>();

  count(key: string, timeWindow: number): { current: number; ttl: number } {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.endsAt <= now) {
      this.windows.delete(key);
      if (this.windows.size >= MAX_LOCAL_KEYS) this.windows.delete(this.windows.keys().next().value!);
      window = { current: 0, endsAt: now + timeWindow };
      this.windows.set(key, window);
    }
    window.current += 1;
    return { current: window.current, ttl: window.endsAt - now };
  }
}

/**
 * Counters in the Redis every instance shares, each key `prefix` + the limiter's key (which names
 * its limit). @fastify/rate-limit's own Redis store would name a limiter's keys after its route,
 * which limiters made with createRateLimit do not have. While Redis is unreachable a count is
 * made at once in this instance's memory instead: the limits hold per instance rather than
 * waiting on Redis or being skipped.
 */
function redisCounters(redis: Redis, prefix: string): FastifyRateLimitStoreCtor {
  const local = new LocalCounters();
  return class RedisCounters implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number): void {
      if (UNREACHABLE.has(redis.status)) return callback(null, local.count(key, timeWindow));
      redis.eval(countScript, 1, `${prefix}${key}`, timeWindow).then(
        (result) => {
          const [current, ttl] = result as [number, number];
          callback(null, { current, ttl });
        },
        () => callback(null, local.count(key, timeWindow)),
      );
    }

    child(): FastifyRateLimitStore {
      return this;
    }
  };
}

/** Registers the limits above on their routes; must run after Redis and before the routes are registered. */
export async function registerRateLimits(app: FastifyInstance): Promise<void> {
  if (!app.config.rateLimits) return;
  await app.register(fastifyRateLimit, {
    global: false,
    skipOnError: true,
    ...(app.redis ? { store: redisCounters(app.redis, `${app.config.redisPrefix}rate-limit:`) } : {}),
  });

  const byRoute = new Map<string, RouteLimit[]>();
  const add = (route: string, limit: RouteLimit) => byRoute.set(route, [...(byRoute.get(route) ?? []), limit]);
  for (const [name, limit] of Object.entries(rateLimits)) {
    const limiter = app.createRateLimit({ max: limit.max, timeWindow: limit.windowSeconds * 1000, keyGenerator: (request) => `${name}:${visitor(request)}` });
    for (const route of limit.routes) add(route, { hook: 'onRequest', check: (request, reply) => enforce(limiter, request, reply) });
  }
  const accountLimits = [
    { name: 'login-account', limit: loginAttemptsPerAccount, route: `POST ${api.login}` },
    { name: 'password-reset-account', limit: resetRequestsPerAccount, route: `POST ${api.passwordReset}` },
  ];
  for (const { name, limit, route } of accountLimits) {
    const perAccount = app.createRateLimit({ max: limit.max, timeWindow: limit.windowSeconds * 1000, keyGenerator: (request) => `${name}:${accountOf(request)}` });
    add(route, {
      hook: 'preValidation',
      check: async (request, reply) => {
        if (accountOf(request)) await enforce(perAccount, request, reply);
      },
    });
  }

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
