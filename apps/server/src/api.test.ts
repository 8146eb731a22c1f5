import { api, connectedSchema, errorBodySchema, feedSchema, likedSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ask, createTestApp, signUp, type TestContext } from './test/helper.js';
import { apiRoutesOf, routeParts } from './test/routes.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** What the tests read of the OpenAPI document: its version, and the operations of each path. */
const openApiSchema = z.object({
  openapi: z.string(),
  paths: z.record(z.string(), z.record(z.string(), z.looseObject({}))),
});

describe('every call', () => {
  it('answers alike with and without the trailing slash', async () => {
    for (const key of apiRoutesOf(ctx.app)) {
      const { method, path } = routeParts(key);
      const url = path.replace(/:\w+/g, '1');
      const statuses = [];
      for (const variant of [url, `${url}/`]) {
        const reply = await ctx.app.inject({ method, url: variant, ...(method === 'POST' ? { payload: {} } : {}) });
        statuses.push(reply.statusCode);
      }
      expect(statuses[0], key).not.toBe(404);
      expect(statuses[0], key).toBe(statuses[1]);
    }
  });

  it('gives the same answer with and without the trailing slash to a signed-in user', async () => {
    const reader = await signUp(ctx);
    const author = await signUp(ctx);
    await reader.api.post(`/api/auth/follow/${author.id}`, connectedSchema);
    const id = await ask(author, { tags: ['slash'] });
    expect(await reader.api.post(`/api/polls/like/${id}`, likedSchema)).toEqual({ liked: true });
    for (const url of [
      api.feed,
      api.tag('slash'),
      api.question(id),
      api.userStats(author.id),
      api.connections,
      api.myStats,
    ]) {
      const withSlash = await reader.api.raw('GET', url);
      const without = await reader.api.raw('GET', url.replace(/\/$/, ''));
      expect(withSlash.status, url).toBe(200);
      expect(without.json(), url).toEqual(withSlash.json());
    }
    const feed = await reader.api.get('/api/polls/questions?limit=1', feedSchema);
    expect(feed.questions.map((question) => question.id)).toEqual([id]);
  });
});

describe('a path under /api that is no call', () => {
  it('is 404 with the error body, with or without a token', async () => {
    const user = await signUp(ctx);
    const cases: ['GET' | 'POST', string][] = [
      ['GET', '/api/nothing/'],
      ['GET', '/api/polls/nothing'],
      ['POST', '/api/polls/nothing/'],
      ['GET', '/api/polls/questions/1/2/3/'],
      ['GET', api.create],
      ['POST', api.feed],
      ['GET', '/api'],
    ];
    for (const [method, url] of cases) {
      for (const headers of [{}, { authorization: `Token ${user.token}` }]) {
        const reply = await ctx.app.inject({ method, url, headers });
        expect(reply.statusCode, `${method} ${url}`).toBe(404);
        expect(reply.headers['content-type']).toMatch(/^application\/json/);
        expect(errorBodySchema.strict().parse(reply.json())).toEqual({ message: `No route ${method} ${url}` });
      }
    }
  });
});

describe('the API documentation', () => {
  it('is a page at /api/docs', async () => {
    for (const url of ['/api/docs', '/api/docs/']) {
      const reply = await ctx.app.inject({ url });
      expect(reply.statusCode, url).toBe(200);
      expect(reply.headers['content-type']).toMatch(/^text\/html/);
      expect(reply.body).toContain('<html');
    }
  });

  it('is an OpenAPI document at /api/docs/json that lists every call', async () => {
    const reply = await ctx.app.inject({ url: '/api/docs/json' });
    expect(reply.statusCode).toBe(200);
    const document = openApiSchema.parse(reply.json());
    expect(document.openapi).toMatch(/^3\./);
    const documented = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map(
        (method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1').replace(/\/$/, '')}`,
      ),
    );
    expect(documented).toEqual(expect.arrayContaining(apiRoutesOf(ctx.app)));
    expect(document.paths['/api/polls/answer/{id}/'].post.requestBody).toBeDefined();
  });
});

describe('a body that is not JSON', () => {
  it('is refused with 400 and the error body, and writes nothing', async () => {
    const user = await signUp(ctx);
    const questions = async () => (await ctx.database.db.selectFrom('questions').select('id').execute()).length;
    const before = await questions();
    for (const payload of ['{', '{"type":"MC",', "{'question':'x'}", 'null x']) {
      const reply = await ctx.app.inject({
        method: 'POST',
        url: api.create,
        headers: { authorization: `Token ${user.token}`, 'content-type': 'application/json' },
        payload,
      });
      expect(reply.statusCode, payload).toBe(400);
      expect(reply.headers['content-type']).toMatch(/^application\/json/);
      expect(errorBodySchema.strict().parse(reply.json()).message.length).toBeGreaterThan(0);
    }
    expect(await questions()).toBe(before);
  });
});
