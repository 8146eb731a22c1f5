import { api, errorBodySchema } from '@pollscope/contract';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession } from '../../modules/auth/index.js';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { apiRoutesOf } from '../../test/routes.js';

/** Each property sends this many requests; the file stays well under a minute. */
const RUNS = 800;

let ctx: TestContext;
let user: TestUser;
let other: TestUser;
let token: string;
let questionId: number;
let fingerprint: string;
let routes: string[];

/**
 * What moves without a request: the last use of a session (read calls too) and what the
 * notification mail's worker writes as it mails the follows and likes of successful calls.
 */
const MOVED_IN_THE_BACKGROUND = [
  'last_used_at',
  'mailed_at',
  'mailed_in',
  'notifications_mailed_at',
  'unsubscribe_token',
];

/** Every table but the mail worker's outbox, which it fills and empties on its own; no call makes a table. */
let tables: string[];

/** A hash of every row of every table, so any change a refused request made would show. */
async function databaseFingerprint(): Promise<string> {
  const hash = createHash('sha256');
  const everyTable = await Promise.all(
    tables.map((table) =>
      ctx.database.db
        .selectFrom(table as 'users')
        .selectAll()
        .execute(),
    ),
  );
  for (const [index, rows] of everyTable.entries()) {
    // Compared in an order of their own: PostgreSQL returns a row an update moved elsewhere.
    const kept = rows
      .map((row) =>
        JSON.stringify({ ...row, ...Object.fromEntries(MOVED_IN_THE_BACKGROUND.map((column) => [column, undefined])) }),
      )
      .sort();
    hash.update(tables[index]).update(JSON.stringify(kept));
  }
  return hash.digest('hex');
}

beforeAll(async () => {
  ctx = await createTestApp();
  user = await signUp(ctx);
  other = await signUp(ctx);
  token = user.token;
  questionId = await ask(other, { choices: ['A', 'B', 'C'], tags: ['fuzz'], category: 1 });
  await ask(user, { type: 'N', question: 'How many?', choices: ['0', '10'] });
  routes = apiRoutesOf(ctx.app);
  tables = (await ctx.database.db.introspection.getTables())
    .map((table) => table.name)
    .filter((name) => name !== 'mail_outbox');
  fingerprint = await databaseFingerprint();
});
afterAll(() => ctx.close());

const validParams: Record<string, () => string | number> = {
  id: () => questionId,
  a: () => questionId,
  b: () => questionId,
  user: () => other.id,
  category: () => 1,
  tag: () => 'fuzz',
};

/** A body each call accepts, for the mutations to start from; calls without a body take none. */
const validBodies: Record<string, () => Record<string, unknown>> = {
  [`POST ${api.create}`]: () => ({
    type: 'MC',
    question: 'Tea or coffee?',
    choices: ['Tea', 'Coffee'],
    tags: ['drinks'],
    category: 2,
  }),
  [`POST ${api.answer(':id')}`]: () => ({ choice: 1 }),
  [`POST ${api.login}`]: () => ({ email: user.email, password: 'correct horse' }),
  [`POST ${api.register}`]: () => ({
    firstName: 'Fuzz',
    birthDate: '1990-06-15',
    gender: 'F',
    livingIn: 840,
    email: 'fuzz@example.com',
    password: 'correct horse',
  }),
  [`POST ${api.settings}`]: () => ({ email: user.email, notification: true }),
  [`POST ${api.account}`]: () => ({
    firstName: 'Fuzz',
    birthDate: '1990-06-15',
    livingIn: 840,
    favoriteCategory: 1,
    favoriteTopic: 'tea',
  }),
  [`POST ${api.breakdown(':id')}`]: () => ({ min_age: 20, max_age: 60, country: 840, gender: 'F' }),
  [`POST ${api.relate(':a', ':b')}`]: () => ({ choice: 1 }),
};
const bodyOf = (route: string) => validBodies[`${route}/`]?.() ?? {};

const nanish = fc.constantFrom(
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-0',
  '0x1F',
  '0b1',
  ' 1 ',
  '1_000',
  '١٢٣',
  '１',
  '',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
);
const hugeNumbers = fc.constantFrom(
  -1,
  0,
  0.5,
  -2_147_483_649,
  2 ** 31,
  2 ** 53 + 2,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  1e-300,
);

/** Anything a JSON field can hold, and the awkward cases of each type. */
const weirdValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ unit: 'grapheme', minLength: 200, maxLength: 3000 }),
  nanish,
  hugeNumbers,
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 60 }),
  fc.dictionary(fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 5 }),
  fc.constantFrom(null, true, false),
);

/** A path parameter: numbers out of range, NaN-ish text, unicode, long strings, path tricks. */
const weirdParam = fc.oneof(
  nanish,
  hugeNumbers.map(String),
  fc.constantFrom(
    '9'.repeat(30),
    '9'.repeat(300),
    '..',
    '.',
    '%00',
    '__proto__',
    'constructor',
    ' ',
    '1;DROP TABLE users',
  ),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.integer().map(String),
  fc.double().map(String),
);

const weirdQuery = fc.array(
  fc.tuple(
    fc.oneof(fc.constantFrom('limit', 'cursor', 'q', 'limit[]', '__proto__[x]'), fc.string({ maxLength: 8 })),
    fc.oneof(weirdParam, fc.string({ maxLength: 400 })),
  ),
  {
    maxLength: 4,
  },
);

const contentTypes = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'text/plain',
    'text/html',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/xml',
    'application/vnd.api+json',
    'application/json; charset=latin1',
    '*/*',
    'json',
  ),
  fc.string({ unit: 'binary-ascii', maxLength: 40 }).filter((value) => /^[\x20-\x7e]*$/.test(value)),
);

const malformedJson = fc.oneof(
  fc.constantFrom(
    '{',
    '}',
    '[',
    '{"choice":}',
    '{"choice":1',
    '{"a":1}}',
    "{'choice':1}",
    '{"__proto__":{"admin":true}}',
    '{"constructor":{"prototype":{"x":1}}}',
    'undefined',
    'NaN',
    '\u0000',
    '\ufeff{}',
  ),
  fc.constant(`${'['.repeat(5000)}${']'.repeat(5000)}`),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.jsonValue().map((value) => JSON.stringify(value)),
);

function fill(route: string, param: (name: string) => string): string {
  const path = route.slice(route.indexOf(' ') + 1);
  return `${path.replace(/:(\w+)/g, (_, name: string) => param(name))}/`;
}

function validUrl(route: string): string {
  return fill(route, (name) => String(validParams[name]()));
}

type Call = Omit<InjectOptions, 'method' | 'url'> & { route: string; url?: string };

/** Sends one request and checks the contract's answer to bad input. */
async function send({ route, url, headers, ...rest }: Call): Promise<LightMyRequestResponse> {
  const method = route.slice(0, route.indexOf(' ')) as 'GET' | 'POST' | 'DELETE';
  const response = await ctx.app.inject({
    method,
    url: url ?? validUrl(route),
    headers: { authorization: `Token ${token}`, ...headers },
    ...rest,
  });
  const context = `${method} ${url ?? validUrl(route)} → ${response.statusCode} ${response.body.slice(0, 300)}`;
  expect(response.statusCode, context).toBeLessThan(500);
  if (response.statusCode >= 400) {
    expect(String(response.headers['content-type']), context).toContain('application/json');
    expect(() => errorBodySchema.strict().parse(response.json()), context).not.toThrow();
    expect(await databaseFingerprint(), `${context} changed the database`).toBe(fingerprint);
  } else {
    if (route === `POST ${api.logout}`.replace(/\/$/, '')) token = await createSession(ctx.database.db, user.id);
    fingerprint = await databaseFingerprint();
  }
  return response;
}

const anyRoute = () => fc.constantFrom(...routes);
const postRoute = () => fc.constantFrom(...routes.filter((route) => route.startsWith('POST ')));

describe('bad input to every call', () => {
  it('is refused with a 4xx for random path parameters and query strings', { timeout: 30_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(anyRoute(), weirdParam, fc.boolean(), weirdQuery, async (route, value, encode, query) => {
        const search = new URLSearchParams(query.map(([key, val]) => [key, String(val)])).toString();
        const url = fill(route, (name) =>
          route.includes(`:${name}`) ? (encode ? encodeURIComponent(value) : value.replace(/[#?]/g, '')) : name,
        );
        await send({
          route,
          url: `${url}${search ? `?${search}` : ''}`,
          ...(route.startsWith('POST ') ? { payload: bodyOf(route) } : {}),
        });
      }),
      {
        numRuns: RUNS,
        // A path the router cannot decode, and a parameter longer than the router takes.
        examples: [
          ['POST /api/polls/answer/:id', '1%', false, []],
          ['GET /api/polls/question/:id', '9'.repeat(300), true, []],
        ],
      },
    );
  });

  it('is refused with a 4xx for bodies with fields mutated, missing or added', { timeout: 30_000 }, async () => {
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: weirdValue }),
      fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('add' as const), key: fc.string({ maxLength: 20 }), value: weirdValue }),
      fc.record({ kind: fc.constant('whole' as const), value: weirdValue }),
    );
    await fc.assert(
      fc.asyncProperty(postRoute(), fc.array(mutation, { minLength: 1, maxLength: 3 }), async (route, mutations) => {
        let body: unknown = bodyOf(route);
        for (const change of mutations) {
          const fields =
            body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
          const keys = Object.keys(fields);
          if (change.kind === 'whole') body = change.value;
          else if (change.kind === 'add') body = { ...fields, [change.key]: change.value };
          else if (keys.length === 0) body = fields;
          else if (change.kind === 'remove')
            body = Object.fromEntries(Object.entries(fields).filter(([key]) => key !== keys[change.at % keys.length]));
          else body = { ...fields, [keys[change.at % keys.length]]: change.value };
        }
        await send({ route, payload: JSON.stringify(body) ?? 'null', headers: { 'content-type': 'application/json' } });
      }),
      { numRuns: RUNS },
    );
  });

  it('is refused with a 4xx for malformed JSON and other content types', { timeout: 30_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(postRoute(), malformedJson, contentTypes, async (route, payload, contentType) => {
        await send({ route, payload, headers: { 'content-type': contentType } });
      }),
      { numRuns: RUNS },
    );
  });

  it('is refused with a 4xx for odd headers', { timeout: 30_000 }, async () => {
    const headerText = fc
      .string({ unit: 'binary-ascii', maxLength: 60 })
      .filter((value) => /^[\x20-\x7e]*$/.test(value));
    const authorization = fc.oneof(
      headerText,
      headerText.map((text) => `Token ${text}`),
      fc.constantFrom('Token', 'Token ', 'Bearer x', 'Basic dXNlcjpwYXNz', `Token ${'a'.repeat(5000)}`),
      fc.constant(null).map(() => `Bearer ${token}`),
      fc.constant(null).map(() => `Token ${token} ${token}`),
      fc.constant(null).map(() => `Token ${token.slice(0, -1)}`),
    );
    await fc.assert(
      fc.asyncProperty(
        anyRoute(),
        authorization,
        headerText,
        contentTypes,
        async (route, auth, accept, contentType) => {
          await send({
            route,
            headers: { authorization: auth, accept, 'content-type': contentType },
            ...(route.startsWith('POST ') ? { payload: JSON.stringify(bodyOf(route)) } : {}),
          });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('is refused with 413 when the body is larger than the limit', { timeout: 30_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(postRoute(), fc.integer({ min: 1, max: 2 * ctx.config.bodyLimit }), async (route, extra) => {
        const payload = JSON.stringify({ ...bodyOf(route), padding: 'x'.repeat(ctx.config.bodyLimit + extra) });
        const response = await send({ route, payload, headers: { 'content-type': 'application/json' } });
        expect(response.statusCode).toBe(413);
      }),
      { numRuns: 40 },
    );
  });
});
