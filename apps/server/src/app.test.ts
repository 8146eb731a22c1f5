import { api, errorBodySchema, healthSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { createTestApp, signUp, type TestContext } from './test/helper.js';
import { sendJson } from './views/questions.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ bodyLimit: 4096 });
});
afterAll(() => ctx.close());

describe('security headers', () => {
  for (const url of ['/', '/question/7', api.countries, api.question(1), '/api/docs/json']) {
    it(`come with ${url}`, async () => {
      const { headers } = await ctx.app.inject({ url });
      const policy = Object.fromEntries(
        String(headers['content-security-policy'])
          .split(';')
          .map((directive) => {
            const [name, ...values] = directive.trim().split(/\s+/);
            return [name, values.join(' ')];
          }),
      );
      // Only the app's own scripts run: its files and the entry page's own inline script (by its hash), no other
      // origin, no plugin, no framing.
      expect(policy).toMatchObject({
        'default-src': "'self'",
        'script-src': expect.stringMatching(/^'self'( 'sha256-[\w+/]+=*')*$/),
        'script-src-attr': "'none'",
        'connect-src': "'self'",
        'object-src': "'none'",
        'frame-ancestors': "'none'",
        'base-uri': "'self'",
        'form-action': "'self'",
      });
      expect(headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'SAMEORIGIN',
        'referrer-policy': 'no-referrer',
        'cross-origin-opener-policy': 'same-origin',
        'cross-origin-resource-policy': 'same-origin',
      });
      expect(headers['strict-transport-security']).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
      expect(headers).not.toHaveProperty('x-powered-by');
    });
  }
});

describe('sign-in tokens', () => {
  it('are read from the Authorization header only, never from a cookie', async () => {
    const user = await signUp(ctx);
    for (const cookie of [
      `token=${user.token}`,
      `Authorization=Token ${user.token}`,
      `pollscope.token=${user.token}`,
    ]) {
      const reply = await ctx.app.inject({ url: api.myStats, headers: { cookie } });
      expect(reply.statusCode).toBe(401);
      expect(errorBodySchema.strict().parse(reply.json())).toEqual({ message: 'Sign in to continue' });
    }
    const withHeader = await ctx.app.inject({ url: api.myStats, headers: { authorization: `Token ${user.token}` } });
    expect(withHeader.statusCode).toBe(200);
    expect(withHeader.headers).not.toHaveProperty('set-cookie');
  });
});

describe('request bodies', () => {
  it('are refused with 413 beyond the configured limit', async () => {
    const user = await signUp(ctx);
    const questions = () => ctx.database.db.selectFrom('questions').select('id').execute();
    const before = await questions();
    const question = 'x'.repeat(ctx.config.bodyLimit);
    const reply = await ctx.app.inject({
      method: 'POST',
      url: api.create,
      headers: { authorization: `Token ${user.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ type: 'MC', question, choices: ['A', 'B'], tags: [] }),
    });
    expect(reply.statusCode).toBe(413);
    expect(errorBodySchema.strict().parse(reply.json())).toEqual({ message: 'Request body too large' });
    expect(await questions()).toEqual(before);
  });

  it('are limited to 64 KiB unless BODY_LIMIT says otherwise', () => {
    expect(loadConfig({}).bodyLimit).toBe(64 * 1024);
    expect(loadConfig({ BODY_LIMIT: '1000' }).bodyLimit).toBe(1000);
  });
});

describe('a response its route’s schema refuses', () => {
  /** What each call sends, and what the check says of it. */
  const wrongAnswers = [
    {
      url: '/checked/wrong/value',
      sent: '{"ok":"yes"}',
      says: ['a body its schema refuses', '✖ Invalid input: expected true', '→ at ok'],
    },
    {
      url: '/checked/wrong/field',
      sent: '{"ok":true,"secret":1}',
      says: ['a body its schema refuses', '✖ A field the schema does not declare', '→ at secret'],
    },
    // Written as JSON already, as the feed is, rather than by the serializer.
    { url: '/checked/wrong/written', sent: '{"ok":false}', says: ['a body its schema refuses', '→ at ok'] },
    { url: '/checked/wrong/not-json', sent: '{"ok":tru', says: ['a body that is not JSON'] },
  ];

  async function appWithWrongAnswers(checkResponses: boolean) {
    const app = await buildApp({ config: ctx.config, database: ctx.database, checkResponses });
    // Outside /api, so that neither sign-in nor the operations' names concern them.
    const options = { schema: { response: { 200: healthSchema } } };
    app.get('/checked/wrong/value', options, async () => ({ ok: 'yes' }));
    app.get('/checked/wrong/field', options, async () => ({ ok: true, secret: 1 }));
    app.get('/checked/wrong/written', options, async (_request, reply) => sendJson(reply, Buffer.from('{"ok":false}')));
    app.get('/checked/wrong/not-json', options, async (_request, reply) => sendJson(reply, Buffer.from('{"ok":tru')));
    await app.ready();
    return app;
  }

  it('is a 500 naming the call, the status and what is wrong when responses are checked, as in tests', async () => {
    const app = await appWithWrongAnswers(true);
    try {
      for (const { url, sent, says } of wrongAnswers) {
        const reply = await app.inject({ url });
        expect(reply.statusCode, url).toBe(500);
        const { message } = errorBodySchema.strict().parse(reply.json());
        expect(message, url).toMatch(new RegExp(`^GET ${url} answered 200 with `));
        for (const part of [...says, sent]) expect(message, url).toContain(part);
      }
    } finally {
      await app.close();
    }
  });

  it('is sent as it is in production, where responses are not checked', async () => {
    const app = await appWithWrongAnswers(false);
    try {
      for (const { url, sent } of wrongAnswers) {
        const reply = await app.inject({ url });
        expect(reply.statusCode, url).toBe(200);
        expect(reply.body, url).toBe(sent);
      }
    } finally {
      await app.close();
    }
  });
});
