import { api, errorBodySchema, OEMBED_PATH } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helper.js';
import { apiRoutesOf, routeParts } from '../../test/routes.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const route = (method: 'GET' | 'POST', path: string) => `${method} ${path.replace(/\/$/, '')}`;

/**
 * The calls the contract lets anyone make (CONTRACT.md §1, and §4's preview picture of a shared
 * question: its id 1 is the seeded quiz's first question), and the load balancers' health and
 * readiness checks.
 */
const publicCalls = [
  route('GET', api.health),
  route('GET', api.ready),
  route('GET', api.countries),
  route('GET', api.categories),
  route('GET', api.quizes),
  route('GET', api.siteStats),
  route('GET', `${api.siteStats}chart.svg`),
  route('GET', api.questionCard(':id')),
  route('POST', api.login),
  route('POST', api.register),
  // Someone who forgot their password is not signed in (CONTRACT.md §4, an account's life).
  route('POST', api.passwordReset),
  route('POST', api.passwordResetConfirm),
  // Opened from the mail to a new address, maybe on a device not signed in: the mailed token is the proof (CONTRACT.md
  // §6).
  route('POST', api.confirmEmail),
  // The key a browser subscribes to push with, the same for everyone (CONTRACT.md §5).
  route('GET', api.pushKey),
  // A question's live vote count, which an embed shows anyone; its result only to who may see it (CONTRACT.md §7).
  route('GET', api.live(':id')),
];
/**
 * Public too, each answering for what its query names: an unsubscribe link's token (modules/notifications/mail.test.ts),
 * an oEmbed consumer's pasted link (modules/embed/embed.test.ts).
 */
const publicCallsWithQuery = [
  route('GET', '/api/unsubscribe/'),
  route('POST', '/api/unsubscribe/'),
  route('GET', OEMBED_PATH),
];

function urlOf(key: string): { method: 'GET' | 'POST' | 'DELETE'; url: string } {
  const { method, path } = routeParts(key);
  return { method, url: `${path.replace(/:\w+/g, '1')}/` };
}

describe('a call that needs a token', () => {
  const guarded = () =>
    apiRoutesOf(ctx.app).filter((key) => !publicCalls.includes(key) && !publicCallsWithQuery.includes(key));

  it('is every call but the public ones', () => {
    expect(guarded().length).toBeGreaterThan(25);
    expect(apiRoutesOf(ctx.app)).toEqual(expect.arrayContaining(publicCalls));
  });

  it('answers 401 without a token, with a token nobody was given, or with another scheme', async () => {
    const cases = [
      [{}, 'Sign in to continue'],
      [{ authorization: 'Token not-a-real-token' }, 'Your session has ended, sign in again'],
      [{ authorization: 'Bearer not-a-real-token' }, 'Sign in to continue'],
      [{ authorization: 'Token' }, 'Sign in to continue'],
    ] as const;
    for (const key of guarded()) {
      for (const [headers, message] of cases) {
        const reply = await ctx.app.inject({
          ...urlOf(key),
          headers: { ...headers, 'content-type': 'application/json' },
          payload: key.startsWith('POST') ? '{}' : undefined,
        });
        expect(reply.statusCode, `${key} ${JSON.stringify(headers)}`).toBe(401);
        expect(errorBodySchema.strict().parse(reply.json())).toEqual({ message });
      }
    }
  });
});

describe('a public call', () => {
  it('needs no token, and a bad one does not stop it', async () => {
    for (const key of publicCalls.filter((call) => call.startsWith('GET'))) {
      for (const headers of [{}, { authorization: 'Token not-a-real-token' }]) {
        const reply = await ctx.app.inject({ ...urlOf(key), headers });
        expect(reply.statusCode, `${key} ${JSON.stringify(headers)}`).toBe(200);
      }
    }
    const login = await ctx.app.inject({
      method: 'POST',
      url: api.login,
      headers: { authorization: 'Token not-a-real-token' },
      payload: { email: 'nobody@example.com', password: 'whatever1' },
    });
    expect(login.statusCode).toBe(400);
    expect(errorBodySchema.strict().parse(login.json())).toEqual({ message: 'Wrong username or password!' });
  });
});
