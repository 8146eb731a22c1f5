import { operations } from '@pollscope/contract';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helper.js';
import { operationsPlugin } from './operations.js';

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  security?: unknown[];
  responses: Record<string, unknown>;
}

let ctx: TestContext;
let documented: [string, OpenApiOperation][];
beforeAll(async () => {
  ctx = await createTestApp();
  const document = (await ctx.app.inject({ url: '/api/docs/json' })).json();
  documented = Object.entries(document.paths as Record<string, Record<string, OpenApiOperation>>).flatMap(
    ([path, methods]) =>
      Object.entries(methods).map(([method, operation]): [string, OpenApiOperation] => [
        `${method.toUpperCase()} ${path}`,
        operation,
      ]),
  );
});
afterAll(() => ctx.close());

describe('the OpenAPI document', () => {
  it('names every operation with a unique operationId and a summary', () => {
    expect(documented.length).toBe(Object.keys(operations).length);
    for (const [key, operation] of documented) {
      expect(operation.operationId, key).toMatch(/^[a-z][A-Za-z]+$/);
      expect(operation.summary, key).toBeTruthy();
    }
    expect(new Set(documented.map(([, operation]) => operation.operationId)).size).toBe(documented.length);
  });

  it('declares at least one 4xx answer for every operation', () => {
    const without4xx = documented.filter(
      ([, operation]) => !Object.keys(operation.responses).some((status) => status.startsWith('4')),
    );
    expect(without4xx.map(([key]) => key)).toEqual([]);
  });

  it('declares of the public reads the 400 they answer: a query holding NUL is refused', async () => {
    const publicReads = documented.filter(
      ([key, operation]) => key.startsWith('GET ') && operation.security?.length === 0,
    );
    expect(publicReads.length).toBeGreaterThan(0);
    for (const [key] of publicReads) {
      const reply = await ctx.app.inject({ method: 'GET', url: `${key.slice('GET '.length)}?nothing=%00` });
      expect(reply.statusCode, key).toBe(400);
    }
  });
});

describe('a call under /api', () => {
  it('cannot be added without its entry in the contract’s operations', async () => {
    const app = Fastify();
    await app.register(operationsPlugin);
    expect(() => app.get('/api/polls/unknown/', async () => ({}))).toThrow(
      /'GET \/api\/polls\/unknown\/' has no operationId and summary/,
    );
  });

  it('leaves no entry of the operations without its call', async () => {
    const app = Fastify();
    await app.register(operationsPlugin);
    app.get('/api/health', async () => ({ ok: true }));
    await expect(app.ready()).rejects.toThrow(/name calls that do not exist: .*GET \/api\/polls\/questions\//);
  });
});
