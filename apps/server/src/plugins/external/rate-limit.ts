import fastifyRateLimit, {
  normalizeIP,
  type FastifyRateLimitStore,
  type FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit';
import { api } from '@pollscope/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { TooManyRequestsError, type ErrorText } from '../../errors.js';

interface Limit {
  /** Requests allowed in one window. */
  max: number;
  windowSeconds: number;
  /** The calls that count against this limit, together: calls that undo each other share it. */
  routes: string[];
  /**
   * Calls that let a stranger in: counted per client address whatever token they carry, so that a
   * token, anyone's, never lifts the limit of an address; and per person as well when signed in.
   */
  letsStrangersIn?: true;
}

/**
 * Requests allowed per signed-in user, or per address for someone who is not signed in; per
 * address always for the calls that let a stranger in.
 */
export const rateLimits = {
  login: { max: 20, windowSeconds: 60, routes: [`POST ${api.login}`], letsStrangersIn: true },
  register: { max: 10, windowSeconds: 3600, routes: [`POST ${api.register}`], letsStrangersIn: true },
  create: { max: 30, windowSeconds: 3600, routes: [`POST ${api.create}`] },
  answer: { max: 120, windowSeconds: 60, routes: [`POST ${api.answer(':id')}`] },
  like: { max: 120, windowSeconds: 60, routes: [`POST ${api.like(':id')}`, `POST ${api.unlike(':id')}`] },
  follow: {
    max: 60,
    windowSeconds: 60,
    routes: [
      `POST ${api.follow(':user')}`,
      `POST ${api.unfollow(':user')}`,
      `POST ${api.ban(':user')}`,
      `POST ${api.unban(':user')}`,
    ],
  },
  /** Like registration: a `409` here tells whether an email is registered, as registering does. */
  settings: { max: 10, windowSeconds: 3600, routes: [`POST ${api.settings}`] },
  confirmEmail: { max: 20, windowSeconds: 3600, routes: [`POST ${api.confirmEmail}`], letsStrangersIn: true },
  passwordReset: { max: 20, windowSeconds: 3600, routes: [`POST ${api.passwordReset}`], letsStrangersIn: true },
  passwordResetConfirm: {
    max: 20,
    windowSeconds: 3600,
    routes: [`POST ${api.passwordResetConfirm}`],
    letsStrangersIn: true,
  },
  exportAccount: { max: 5, windowSeconds: 3600, routes: [`GET ${api.exportAccount}`] },
  deleteAccount: { max: 10, windowSeconds: 3600, routes: [`POST ${api.deleteAccount}`] },
  /** A device subscribes when push is turned on, or its browser renews the subscription: a few times a day at most. */
  pushSubscriptions: {
    max: 30,
    windowSeconds: 3600,
    routes: [`POST ${api.pushSubscriptions}`, `DELETE ${api.pushSubscriptions}`],
  },
  /** Reports cost a moderator's time: a person cannot flood the queue. */
  report: { max: 20, windowSeconds: 3600, routes: [`POST ${api.reports}`] },
} satisfies Record<string, Limit>;

/**
 * Wrong passwords for one email from one client address: past them that address may not try
 * that email again until the window ends, the right password included (the guesser must not learn
 * it by being let through). Other addresses, the owner's among them, are not held by it.
 */
export const loginFailuresPerAddressAndAccount = { max: 10, windowSeconds: 15 * 60 };

/**
 * Wrong passwords for one email from every address together: guessing spread over many machines
 * gets at most this many tries an hour (OWASP ASVS 2.2.1). Past them only addresses that signed in
 * to the account lately may still try, so strangers cannot lock its owner out of their usual
 * devices; from elsewhere the owner can still get in with a forgotten-password link.
 */
export const loginFailuresPerAccount = { max: 100, windowSeconds: 3600 };

/** How long an address that signed in to an account stays known to it, and exempt from `loginFailuresPerAccount`. */
export const knownAddressSeconds = 30 * 24 * 3600;

/** Links to choose a new password mailed to one address, whoever asks: nobody can fill a mailbox with them. */
export const resetRequestsPerAccount = { max: 5, windowSeconds: 3600 };

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

interface RouteLimit {
  /** Limits per account key on the body as the schema read it, so they run once it is validated. */
  hook: 'onRequest' | 'preHandler';
  check(request: FastifyRequest, reply: FastifyReply): Promise<void>;
}

const addressOf = (request: FastifyRequest) => `address:${normalizeIP(request.ip)}`;

/** The auth hook has run by now, so a signed-in user is counted as themselves on every device. */
function visitor(request: FastifyRequest): string {
  return request.viewerId !== null ? `user:${request.viewerId}` : addressOf(request);
}

/**
 * The account a call names: the `email` of its body as validated, which the schemas of the calls
 * limited per account trim and lower-case (login's reads it from `username` or `email`). Never a
 * raw body field: one the schema drops would make a new key for every request.
 */
function accountOf(request: FastifyRequest): string | null {
  const { email } = (request.body ?? {}) as { email?: unknown };
  return typeof email === 'string' && email !== '' ? email : null;
}

/** How long to wait, in seconds up to two minutes, else in minutes. */
function waitText(seconds: number): ErrorText {
  return seconds < 120
    ? { id: 'errors.rateLimited.seconds', values: { seconds } }
    : { id: 'errors.rateLimited.minutes', values: { minutes: Math.ceil(seconds / 60) } };
}

function refuse(reply: FastifyReply, ttlSeconds: number): never {
  reply.header('retry-after', ttlSeconds);
  throw new TooManyRequestsError(waitText(ttlSeconds));
}

async function enforce(limiter: Limiter, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const state = await limiter(request);
  if (state.isAllowed) return;
  // A call under two limits shows the one closer to running out.
  const shown = reply.getHeader('x-ratelimit-remaining');
  if (shown === undefined || state.remaining < Number(shown)) {
    reply
      .header('x-ratelimit-limit', state.max)
      .header('x-ratelimit-remaining', state.remaining)
      .header('x-ratelimit-reset', state.ttlInSeconds);
  }
  if (state.isExceeded) refuse(reply, state.ttlInSeconds);
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

  /** The count of the window running now, without counting. */
  read(key: string): { current: number; ttl: number } {
    const window = this.windows.get(key);
    const now = Date.now();
    return window && window.endsAt > now
      ? { current: window.current, ttl: window.endsAt - now }
      : { current: 0, ttl: 0 };
  }

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
    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ): void {
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

/**
 * Counts only what went wrong (wrong passwords), so it is read before a call and counted after:
 * in Redis when there is one, in this instance's memory while Redis is away.
 */
interface OutcomeCounters {
  read(key: string): Promise<{ current: number; ttl: number }>;
  count(key: string, timeWindow: number): Promise<void>;
}

function outcomeCounters(redis: Redis | null, prefix: string): OutcomeCounters {
  const local = new LocalCounters();
  const reachable = () => redis !== null && !UNREACHABLE.has(redis.status);
  return {
    async read(key) {
      if (!reachable()) return local.read(key);
      try {
        const [current, ttl] = (await redis!.multi().get(`${prefix}${key}`).pttl(`${prefix}${key}`).exec())!.map(
          ([, value]) => value,
        );
        return { current: Number(current ?? 0), ttl: Math.max(0, Number(ttl)) };
      } catch {
        return local.read(key);
      }
    },
    async count(key, timeWindow) {
      if (!reachable()) return void local.count(key, timeWindow);
      await redis!.eval(countScript, 1, `${prefix}${key}`, timeWindow).catch(() => local.count(key, timeWindow));
    },
  };
}

/**
 * The sign-in limits of one account: wrong passwords counted per client address and email
 * together, and per email from everywhere, read before the password is checked and counted after
 * a wrong one. An address that signs in is remembered as known to the account.
 */
function loginLimits(app: FastifyInstance): {
  check: RouteLimit;
  counted: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
} {
  const counters = outcomeCounters(app.redis, `${app.config.redisPrefix}login:`);
  const checked = new WeakSet<FastifyRequest>();
  const keys = (request: FastifyRequest, email: string) => {
    const address = normalizeIP(request.ip);
    return { pair: `failed:${address}:${email}`, account: `failed:${email}`, known: `known:${address}:${email}` };
  };
  const ttlSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
  return {
    check: {
      hook: 'preHandler',
      async check(request, reply) {
        const email = accountOf(request);
        if (!email) return;
        const { pair, account, known } = keys(request, email);
        const fromHere = await counters.read(pair);
        if (fromHere.current >= loginFailuresPerAddressAndAccount.max) refuse(reply, ttlSeconds(fromHere.ttl));
        const fromEverywhere = await counters.read(account);
        if (fromEverywhere.current >= loginFailuresPerAccount.max && (await counters.read(known)).current === 0)
          refuse(reply, ttlSeconds(fromEverywhere.ttl));
        checked.add(request);
      },
    },
    // Before the answer leaves, so that the next attempt, however soon, is counted with this one.
    async counted(request, reply) {
      const email = accountOf(request);
      if (!email || !checked.has(request)) return;
      const { pair, account, known } = keys(request, email);
      if (reply.statusCode === 400) {
        await counters.count(pair, loginFailuresPerAddressAndAccount.windowSeconds * 1000);
        await counters.count(account, loginFailuresPerAccount.windowSeconds * 1000);
      } else if (reply.statusCode === 200) {
        await counters.count(known, knownAddressSeconds * 1000);
      }
    },
  };
}

/**
 * The limits above on their routes, counted in the Redis every instance shares: registered after
 * Redis (or it would count per instance without saying so) and before the routes.
 */
export const rateLimitPlugin = fp(
  async (app: FastifyInstance) => {
    if (!app.config.rateLimits) return;
    await app.register(fastifyRateLimit, {
      global: false,
      skipOnError: true,
      ...(app.redis ? { store: redisCounters(app.redis, `${app.config.redisPrefix}rate-limit:`) } : {}),
    });

    const byRoute = new Map<string, RouteLimit[]>();
    const add = (route: string, limit: RouteLimit) => byRoute.set(route, [...(byRoute.get(route) ?? []), limit]);
    for (const [name, limit] of Object.entries(rateLimits) as [string, Limit][]) {
      const counted = (key: (request: FastifyRequest) => string) =>
        app.createRateLimit({
          max: limit.max,
          timeWindow: limit.windowSeconds * 1000,
          keyGenerator: (request) => `${name}:${key(request)}`,
        });
      const limiter = counted(visitor);
      let check = (request: FastifyRequest, reply: FastifyReply) => enforce(limiter, request, reply);
      if (limit.letsStrangersIn) {
        const perAddress = counted(addressOf);
        // Without a token `visitor` is the address: a stranger's call is counted once.
        check = async (request, reply) => {
          await enforce(perAddress, request, reply);
          if (request.viewerId !== null) await enforce(limiter, request, reply);
        };
      }
      for (const route of limit.routes) add(route, { hook: 'onRequest', check });
    }
    const resetsPerAccount = app.createRateLimit({
      max: resetRequestsPerAccount.max,
      timeWindow: resetRequestsPerAccount.windowSeconds * 1000,
      keyGenerator: (request) => `password-reset-account:${accountOf(request)}`,
    });
    add(`POST ${api.passwordReset}`, {
      hook: 'preHandler',
      check: async (request, reply) => {
        if (accountOf(request)) await enforce(resetsPerAccount, request, reply);
      },
    });
    const login = loginLimits(app);
    const loginRoute = `POST ${api.login}`;
    add(loginRoute, login.check);

    const attached = new Set<string>();
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        const key = `${method} ${route.url}`;
        for (const { hook, check } of byRoute.get(key) ?? []) {
          route[hook] = [route[hook] ?? []].flat().concat(check);
          attached.add(key);
        }
        if (key === loginRoute) {
          route.onSend = [route.onSend ?? []].flat().concat(async (request, reply, payload) => {
            await login.counted(request, reply);
            return payload;
          });
        }
      }
    });
    // A renamed path must not leave its call without a limit.
    app.addHook('onReady', async () => {
      const missing = [...byRoute.keys()].filter((key) => !attached.has(key));
      if (missing.length > 0) throw new Error(`Rate limits name calls that do not exist: ${missing.join(', ')}`);
    });
  },
  { name: 'rate-limit', dependencies: ['redis'], decorators: { fastify: ['config'] } },
);
