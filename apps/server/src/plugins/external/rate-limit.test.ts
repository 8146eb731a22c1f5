import { api, errorBodySchema, tokenResponseSchema } from '@pollscope/contract';
import Fastify, { type InjectOptions } from 'fastify';
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import { createTestApp, type TestContext } from '../../test/helper.js';
import {
  loginFailuresPerAccount,
  loginFailuresPerAddressAndAccount,
  rateLimitPlugin,
  rateLimits,
  resetRequestsPerAccount,
} from './rate-limit.js';
import { redisPlugin } from './redis.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ rateLimits: true });
});
afterAll(() => ctx.close());

let addresses = 0;
/** Each test acts from addresses of its own, so the counters of one do not spill into another. */
function newAddress(): string {
  addresses += 1;
  return `203.0.113.${addresses}`;
}

interface User {
  email: string;
  token: string;
}

function call(options: {
  url: string;
  address: string;
  user?: User;
  payload?: unknown;
  method?: InjectOptions['method'];
}) {
  return ctx.app.inject({
    method: options.method ?? 'POST',
    url: options.url,
    remoteAddress: options.address,
    headers: options.user ? { authorization: `Token ${options.user.token}` } : {},
    ...(options.payload === undefined ? {} : { payload: options.payload as InjectOptions['payload'] }),
  });
}

/** Makes `times` calls and returns the statuses seen. */
async function repeat(times: number, make: (index: number) => ReturnType<typeof call>): Promise<number[]> {
  const statuses: number[] = [];
  for (let index = 0; index < times; index += 1) statuses.push((await make(index)).statusCode);
  return statuses;
}

/** Registers from an address of its own, as registrations are limited per address too. */
const registration = {
  firstName: 'Lim',
  birthDate: '1990-06-15',
  gender: 'M',
  livingIn: 840,
  password: 'correct horse',
};

async function signUp(): Promise<User> {
  const email = `limited${addresses}@example.com`;
  const response = await call({ url: api.register, address: newAddress(), payload: { ...registration, email } });
  expect(response.statusCode).toBe(201);
  return { email, token: tokenResponseSchema.parse(response.json()).token };
}

function expectRateLimited(response: Awaited<ReturnType<typeof call>>, windowSeconds: number): void {
  expect(response.statusCode).toBe(429);
  expect(errorBodySchema.strict().parse(response.json()).message).toMatch(
    /^Too many requests, try again in \d+ (second|seconds|minutes)$/,
  );
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds);
}

describe('rate limits', () => {
  it('lets an address try to sign in a limited number of times, whatever the emails, then answers 429', async () => {
    const address = newAddress();
    const { max, windowSeconds } = rateLimits.login;
    const statuses = await repeat(max, (index) =>
      call({ url: api.login, address, payload: { email: `nobody${index}@example.com`, password: 'wrong password' } }),
    );
    expect(statuses.every((status) => status === 400)).toBe(true);

    const refused = await call({
      url: api.login,
      address,
      payload: { email: 'someone-else@example.com', password: 'wrong password' },
    });
    expectRateLimited(refused, windowSeconds);
    const otherAddress = await call({
      url: api.login,
      address: newAddress(),
      payload: { email: 'someone-else@example.com', password: 'wrong password' },
    });
    expect(otherAddress.statusCode).toBe(400);
  });

  // Issue 30, finding 7: ten wrong passwords for an email from anywhere made the right one answer 429 everywhere.
  it('holds an address that guessed an account’s password too often, and only that address', async () => {
    const user = await signUp();
    const guesser = newAddress();
    const { max, windowSeconds } = loginFailuresPerAddressAndAccount;
    const statuses = await repeat(max, () =>
      call({ url: api.login, address: guesser, payload: { username: user.email, password: 'wrong password' } }),
    );
    expect(statuses.every((status) => status === 400)).toBe(true);

    // The guesser is held, even with the right password: it must not learn it by being let through…
    expectRateLimited(
      await call({
        url: api.login,
        address: guesser,
        payload: { email: ` ${user.email.toUpperCase()}`, password: 'correct horse' },
      }),
      windowSeconds,
    );
    // …but the owner, elsewhere, signs in.
    expect(
      (await call({ url: api.login, address: newAddress(), payload: { email: user.email, password: 'correct horse' } }))
        .statusCode,
    ).toBe(200);
    // And the guesser may still sign in to accounts of its own.
    const own = await signUp();
    expect(
      (await call({ url: api.login, address: guesser, payload: { email: own.email, password: 'correct horse' } }))
        .statusCode,
    ).toBe(200);
  });

  it('counts only wrong passwords: an owner signing in often is never held', async () => {
    const user = await signUp();
    const address = newAddress();
    const statuses = await repeat(loginFailuresPerAddressAndAccount.max + 2, () =>
      call({ url: api.login, address, payload: { email: user.email, password: 'correct horse' } }),
    );
    expect(new Set(statuses)).toEqual(new Set([200]));
  });

  it('limits wrong passwords for one account from every address together, except from addresses that signed in to it', async () => {
    const user = await signUp();
    const ownersAddress = newAddress();
    expect(
      (
        await call({
          url: api.login,
          address: ownersAddress,
          payload: { email: user.email, password: 'correct horse' },
        })
      ).statusCode,
    ).toBe(200);
    // Guessing spread over many addresses, each staying under its own limit.
    const perAddress = loginFailuresPerAddressAndAccount.max;
    const statuses: number[] = [];
    for (let sent = 0; sent < loginFailuresPerAccount.max; sent += perAddress) {
      const address = newAddress();
      statuses.push(
        ...(await repeat(perAddress, () =>
          call({ url: api.login, address, payload: { email: user.email, password: 'wrong password' } }),
        )),
      );
    }
    expect(new Set(statuses)).toEqual(new Set([400]));

    expectRateLimited(
      await call({ url: api.login, address: newAddress(), payload: { email: user.email, password: 'correct horse' } }),
      loginFailuresPerAccount.windowSeconds,
    );
    // The owner's usual address is not held by strangers' guesses.
    expect(
      (
        await call({
          url: api.login,
          address: ownersAddress,
          payload: { email: user.email, password: 'correct horse' },
        })
      ).statusCode,
    ).toBe(200);
  });

  it('limits registrations per address', async () => {
    const address = newAddress();
    const { max, windowSeconds } = rateLimits.register;
    const statuses = await repeat(max, () => call({ url: api.register, address, payload: { email: 'not an email' } }));
    expect(statuses.every((status) => status === 400)).toBe(true);
    expectRateLimited(await call({ url: api.register, address, payload: { email: 'not an email' } }), windowSeconds);
  });

  // Issue 43, finding 1: a token, anyone's, made these count per person and lifted the address's limit.
  it('limits registrations per address whatever valid token each carries', async () => {
    const address = newAddress();
    const { max, windowSeconds } = rateLimits.register;
    let previous = await signUp();
    const register = (index: number) =>
      call({
        url: api.register,
        address,
        user: previous,
        payload: { ...registration, email: `token-carrier${addresses}-${index}@example.com` },
      });
    for (let index = 0; index < max; index += 1) {
      const response = await register(index);
      expect(response.statusCode).toBe(201);
      previous = { email: '', token: tokenResponseSchema.parse(response.json()).token };
    }
    expectRateLimited(await register(max), windowSeconds);
  });

  const letStrangersIn = [
    {
      name: 'login',
      url: api.login,
      payload: (index: number) => ({ email: `nobody${index}@example.com`, password: 'x' }),
    },
    { name: 'confirmEmail', url: api.confirmEmail, payload: (index: number) => ({ token: `not-a-token-${index}` }) },
    { name: 'passwordReset', url: api.passwordReset, payload: (index: number) => ({ email: `not an email ${index}` }) },
    {
      name: 'passwordResetConfirm',
      url: api.passwordResetConfirm,
      payload: (index: number) => ({ token: `not-a-token-${index}`, password: 'correct horse' }),
    },
  ] as const;
  for (const { name, url, payload } of letStrangersIn) {
    it(`limits ${name} per address whatever valid tokens the calls carry`, async () => {
      const address = newAddress();
      const users = [await signUp(), await signUp(), await signUp()];
      const { max, windowSeconds } = rateLimits[name];
      const statuses = await repeat(max, (index) =>
        call({ url, address, user: users[index % users.length], payload: payload(index) }),
      );
      expect(statuses.every((status) => status !== 429)).toBe(true);
      expectRateLimited(await call({ url, address, user: users[0], payload: payload(max) }), windowSeconds);
      // Another address is not held by it, token or none.
      expect((await call({ url, address: newAddress(), user: users[1], payload: payload(max) })).statusCode).not.toBe(
        429,
      );
    });
  }

  for (const name of ['passwordReset', 'passwordResetConfirm'] as const) {
    it(`limits ${name} per address`, async () => {
      const address = newAddress();
      const url = name === 'passwordReset' ? api.passwordReset : api.passwordResetConfirm;
      const { max, windowSeconds } = rateLimits[name];
      // Refused bodies, answered at once (a request that may mail waits its fixed time), each naming another account.
      const refused = (index: number) => ({ email: `not an email ${index}` });
      const statuses = await repeat(max, (index) => call({ url, address, payload: refused(index) }));
      expect(statuses.every((status) => status === 400)).toBe(true);
      expectRateLimited(await call({ url, address, payload: refused(max) }), windowSeconds);
      expect((await call({ url, address: newAddress(), payload: refused(max) })).statusCode).toBe(400);
    });
  }

  // Issue 30, finding 6: the limit keyed on `username || email` of the raw body, which the schema drops.
  it('limits the links mailed to one address by the email as validated, whatever other fields come with it', async () => {
    const user = await signUp();
    const statuses = await repeat(resetRequestsPerAccount.max, (index) =>
      call({
        url: api.passwordReset,
        address: newAddress(),
        payload: { email: user.email, username: `x${index + 1}` },
      }),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
    for (const extra of [{ username: 'x12' }, { username: user.email.replace('@', '+1@') }, { email2: 'y' }]) {
      expectRateLimited(
        await call({ url: api.passwordReset, address: newAddress(), payload: { ...extra, email: user.email } }),
        resetRequestsPerAccount.windowSeconds,
      );
    }
  });

  it('limits wrong passwords by the email the schema reads, whichever field carries it', async () => {
    const user = await signUp();
    const address = newAddress();
    const { max } = loginFailuresPerAddressAndAccount;
    const statuses = await repeat(max, (index) =>
      call({
        url: api.login,
        address,
        payload:
          index % 2
            ? { username: user.email, email: `other${index}@example.com`, password: 'wrong' }
            : { email: user.email, password: 'wrong' },
      }),
    );
    expect(new Set(statuses)).toEqual(new Set([400]));
    expect(
      (
        await call({
          url: api.login,
          address,
          payload: { username: ` ${user.email.toUpperCase()} `, extra: 'x', password: 'correct horse' },
        })
      ).statusCode,
    ).toBe(429);
  });

  it('limits the links mailed to one address, whoever asks', async () => {
    const user = await signUp();
    const statuses = await repeat(resetRequestsPerAccount.max, () =>
      call({ url: api.passwordReset, address: newAddress(), payload: { email: user.email } }),
    );
    expect(statuses.every((status) => status === 200)).toBe(true);
    expectRateLimited(
      await call({ url: api.passwordReset, address: newAddress(), payload: { email: ` ${user.email.toUpperCase()}` } }),
      resetRequestsPerAccount.windowSeconds,
    );
    // Nobody learns from it whether the address has an account: one without is limited alike.
    const unknown = 'nobody-limited@example.com';
    await repeat(resetRequestsPerAccount.max, () =>
      call({ url: api.passwordReset, address: newAddress(), payload: { email: unknown } }),
    );
    expectRateLimited(
      await call({ url: api.passwordReset, address: newAddress(), payload: { email: unknown } }),
      resetRequestsPerAccount.windowSeconds,
    );
  });

  const perUser: {
    name: 'create' | 'answer' | 'like' | 'follow' | 'exportAccount' | 'deleteAccount' | 'settings' | 'report';
    url: string;
    payload?: unknown;
    method?: 'GET';
  }[] = [
    // Issue 30, finding 5: its 409 tells whether an email is registered, like registering, which is limited.
    { name: 'settings', url: api.settings, payload: { email: 'someone-else@example.com', notification: true } },
    { name: 'create', url: api.create, payload: { type: 'MC' } },
    { name: 'answer', url: api.answer(999_999), payload: { choice: 1 } },
    { name: 'like', url: api.like(999_999) },
    { name: 'follow', url: api.follow(999_999) },
    { name: 'exportAccount', url: api.exportAccount, method: 'GET' },
    // A wrong password: guessing it, to delete someone's account from their device, is limited.
    { name: 'deleteAccount', url: api.deleteAccount, payload: { password: 'wrong password' } },
    // Each report costs a moderator's time.
    { name: 'report', url: api.reports, payload: { target: 'question', id: 999_999, reason: 'spam' } },
  ];

  for (const { name, url, payload, method } of perUser) {
    it(`limits ${name} per user, not per address`, async () => {
      const address = newAddress();
      const [user, neighbour] = [await signUp(), await signUp()];
      const { max, windowSeconds } = rateLimits[name];
      const statuses = await repeat(max, () => call({ url, address, user, payload, method }));
      expect(statuses.every((status) => status !== 429)).toBe(true);

      expectRateLimited(await call({ url, address: newAddress(), user, payload, method }), windowSeconds);
      const fromSameAddress = await call({ url, address, user: neighbour, payload, method });
      expect(fromSameAddress.statusCode).not.toBe(429);
    });
  }

  it('counts like and unlike together, and follow, unfollow, ban and unban together', async () => {
    const user = await signUp();
    const address = newAddress();
    const half = rateLimits.like.max / 2;
    await repeat(half, () => call({ url: api.like(999_999), address, user }));
    await repeat(half, () => call({ url: api.unlike(999_999), address, user }));
    expect((await call({ url: api.like(999_999), address, user })).statusCode).toBe(429);

    const quarter = rateLimits.follow.max / 4;
    for (const url of [api.follow(999_999), api.unfollow(999_999), api.ban(999_999), api.unban(999_999)])
      await repeat(quarter, () => call({ url, address, user }));
    expect((await call({ url: api.unban(999_999), address, user })).statusCode).toBe(429);
  });

  it('tells a client how many calls it has left', async () => {
    const user = await signUp();
    const response = await call({ url: api.answer(999_999), address: newAddress(), user, payload: { choice: 1 } });
    expect(response.headers['x-ratelimit-limit']).toBe(String(rateLimits.answer.max));
    expect(response.headers['x-ratelimit-remaining']).toBe(String(rateLimits.answer.max - 1));
  });

  it('leaves reads unlimited', async () => {
    const user = await signUp();
    const address = newAddress();
    const statuses = await repeat(150, () => call({ method: 'GET', url: api.question(999_999), address, user }));
    expect(new Set(statuses)).toEqual(new Set([404]));
  });
});

describe('with RATE_LIMITS=off', () => {
  it('never answers 429', async () => {
    const unlimited = await createTestApp({ rateLimits: false });
    try {
      const statuses = await repeat(rateLimits.login.max + 5, (index) =>
        unlimited.app.inject({
          method: 'POST',
          url: api.login,
          remoteAddress: '198.51.100.1',
          payload: { email: `x${index}@example.com`, password: 'wrong password' },
        }),
      );
      expect(statuses.every((status) => status === 400)).toBe(true);
    } finally {
      await unlimited.close();
    }
  });
});

describe('the order of the plugins', () => {
  /** An app with the limits on, and only the plugins named, in that order. */
  function appWith(...plugins: (typeof redisPlugin)[]) {
    const app = Fastify();
    app.decorate('config', { ...loadConfig({}), rateLimits: true });
    for (const plugin of plugins) app.register(plugin);
    return app;
  }

  it('stops the app at start when the limits come before Redis, rather than counting on each instance alone', async () => {
    const app = appWith(rateLimitPlugin, redisPlugin);
    await expect(app.ready()).rejects.toThrow(/dependency 'redis' of plugin 'rate-limit' is not registered/);
    await app.close();
  });

  it('loads the limits after Redis', async () => {
    const app = appWith(redisPlugin, rateLimitPlugin);
    // Loaded only: this app has none of the routes the limits name, which would stop it when ready.
    await app.after();
    expect(app.hasDecorator('createRateLimit')).toBe(true);
    await app.close();
  });
});

const redisUrl = process.env.TEST_REDIS_URL;

// `npm test` gives TEST_REDIS_URL when Redis is there, and says so when it is not.
describe.runIf(redisUrl)('with Redis', () => {
  const prefix = `pollscope-test-${randomBytes(6).toString('hex')}:`;
  const instances: TestContext[] = [];
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(redisUrl!);
    for (let index = 0; index < 2; index += 1)
      instances.push(await createTestApp({ rateLimits: true, redisUrl: redisUrl!, redisPrefix: prefix }));
  });
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  const login = (instance: TestContext, address: string, index: number) =>
    instance.app.inject({
      method: 'POST',
      url: api.login,
      remoteAddress: address,
      payload: { email: `shared${index}@example.com`, password: 'wrong password' },
    });

  it('keeps the counters in Redis under the configured prefix, named after each limit', async () => {
    await login(instances[0], '198.51.100.7', 0);
    const keys = await redis.keys(`${prefix}*`);
    expect(keys.sort()).toEqual([
      `${prefix}login:failed:198.51.100.7:shared0@example.com`,
      `${prefix}login:failed:shared0@example.com`,
      `${prefix}rate-limit:login:address:198.51.100.7`,
    ]);
    expect(await redis.get(`${prefix}rate-limit:login:address:198.51.100.7`)).toBe('1');
    const ttl = await redis.pttl(`${prefix}rate-limit:login:address:198.51.100.7`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(rateLimits.login.windowSeconds * 1000);
  });

  it('shares the wrong passwords of an account between instances', async () => {
    const address = '198.51.100.9';
    const { max, windowSeconds } = loginFailuresPerAddressAndAccount;
    const guess = (instance: TestContext) =>
      instance.app.inject({
        method: 'POST',
        url: api.login,
        remoteAddress: address,
        payload: { email: 'guessed@example.com', password: 'wrong password' },
      });
    const statuses = await repeat(max, (index) => guess(instances[index % 2]));
    expect(statuses.every((status) => status === 400)).toBe(true);
    expectRateLimited(await guess(instances[0]), windowSeconds);
    expectRateLimited(await guess(instances[1]), windowSeconds);
  });

  it('shares the counters between instances', async () => {
    const address = '198.51.100.8';
    const { max, windowSeconds } = rateLimits.login;
    // Half the attempts on one instance, half on the other: together they reach the limit.
    const statuses = await repeat(max, (index) => login(instances[index % 2], address, index));
    expect(statuses.every((status) => status === 400)).toBe(true);
    expectRateLimited(await login(instances[0], address, max), windowSeconds);
    expectRateLimited(await login(instances[1], address, max + 1), windowSeconds);
  });
});
