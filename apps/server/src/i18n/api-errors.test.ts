import {
  accountUpdateBodySchema,
  api,
  createQuestionBodySchema,
  errorBodySchema,
  LANGUAGE_COOKIE,
  moderationActionBodySchema,
  registerBodySchema,
  settingsUpdateBodySchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { createTestApp, signUp, type TestContext } from '../test/helper.js';
import { issueText, renderText } from './error-texts.js';
import { catalogs } from './messages.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** A call with these headers: its status, `Content-Language` and error body. */
async function call(method: 'GET' | 'POST', url: string, headers: Record<string, string>, payload?: object) {
  const reply = await ctx.app.inject({ method, url, headers: { accept: 'application/json', ...headers }, payload });
  return {
    status: reply.statusCode,
    language: reply.headers['content-language'],
    body: errorBodySchema.strict().parse(reply.json()),
  };
}

/** Saves the person's language through the settings. */
async function saveLanguage(token: string, email: string, language: string): Promise<void> {
  const reply = await ctx.app.inject({
    method: 'POST',
    url: api.settings,
    headers: { authorization: `Token ${token}` },
    payload: { email, notification: true, language },
  });
  expect(reply.statusCode, reply.body).toBe(200);
}

const badLogin = { email: 'nobody@example.com', password: 'not the password' };
const badQuestion = { type: 'MC', question: '   ', choices: ['Tea', 'Coffee'], tags: ['one', 'two'] };

describe('the API’s errors', () => {
  it('are English as the spec writes them, said so, for a visitor who asks for nothing else', async () => {
    expect(await call('POST', api.login, {}, badLogin)).toEqual({
      status: 400,
      language: 'en',
      body: { message: 'Wrong username or password!' },
    });
    const user = await signUp(ctx);
    const invalid = await call('POST', api.create, { authorization: `Token ${user.token}` }, badQuestion);
    expect(invalid).toEqual({
      status: 400,
      language: 'en',
      body: { message: 'Question is required', errors: { question: 'Question is required', tags: 'Only one tag' } },
    });
  });

  it('are in the language of Accept-Language for a visitor', async () => {
    expect(await call('POST', api.login, { 'accept-language': 'ja,en;q=0.5' }, badLogin)).toEqual({
      status: 400,
      language: 'ja',
      body: { message: 'ユーザー名またはパスワードが違います' },
    });
    const missing = await call('GET', api.question(999_999), { 'accept-language': 'ja' });
    expect(missing.status).toBe(401);
    expect(missing).toMatchObject({ language: 'ja', body: { message: '続けるにはログインしてください' } });
  });

  it('are in the language of the cookie before Accept-Language, the contract’s validation texts too', async () => {
    const headers = { cookie: `${LANGUAGE_COOKIE}=fr`, 'accept-language': 'de' };
    const register = await call('POST', api.register, headers, {
      firstName: ' ',
      birthDate: '2030-02-30',
      gender: 'F',
      livingIn: 840,
      email: 'not an email',
      password: 'short',
    });
    expect(register.status).toBe(400);
    expect(register.language).toBe('fr');
    // The fields are named as ever; only their texts are French.
    expect(register.body.errors).toEqual({
      firstName: 'Le nom est obligatoire',
      birthDate: 'Cette date n’existe pas',
      email: 'Saisissez une adresse e-mail valide',
      password: 'Au moins 8 caractères',
    });
    expect(register.body.message).toBe('Le nom est obligatoire');
  });

  it('are in the account’s language for a signed-in person, whatever their browser asks for', async () => {
    const user = await signUp(ctx);
    const auth = { authorization: `Token ${user.token}`, 'accept-language': 'ja', cookie: `${LANGUAGE_COOKIE}=fr` };
    await saveLanguage(user.token, user.email, 'de');

    expect(await call('GET', api.question(999_999), auth)).toEqual({
      status: 404,
      language: 'de',
      body: { message: 'Diese Frage gibt es nicht' },
    });
    const invalid = await call('POST', api.create, auth, badQuestion);
    expect(invalid).toEqual({
      status: 400,
      language: 'de',
      body: { message: 'Gib eine Frage ein', errors: { question: 'Gib eine Frage ein', tags: 'Nur ein Tag' } },
    });
    // A zod text of its own (no text of the contract): its kind, in German; in English as zod wrote it.
    const limit = await call('GET', `${api.myQuestions}?limit=500`, auth);
    expect(limit).toMatchObject({ status: 400, body: { message: 'Verwende eine Zahl bis 100' } });

    const settings = await call('POST', api.settings, auth, { email: user.email, notification: true, language: 'nl' });
    expect(settings).toMatchObject({
      status: 400,
      body: { errors: { language: 'Wähle eine dieser Sprachen: en, de, fr, es, it, pt-BR, ja, ar' } },
    });
    expect(await call('GET', '/api/no/such/call/', auth)).toMatchObject({
      status: 404,
      language: 'de',
      body: { message: 'Keine Route GET /api/no/such/call/' },
    });
  });

  it('write values in the reader’s language: a plural in Arabic, a number in a field', async () => {
    const user = await signUp(ctx);
    const auth = { authorization: `Token ${user.token}` };
    await saveLanguage(user.token, user.email, 'ar');
    const question = await ctx.app.inject({
      method: 'POST',
      url: api.create,
      headers: auth,
      payload: { type: 'MC', question: 'Tea or coffee?', choices: ['Tea', 'Coffee'], tags: [] },
    });
    const { id } = question.json<{ question: { id: number } }>().question;
    const answer = await call('POST', api.answer(id), auth, { choice: 7 });
    expect(answer).toEqual({
      status: 400,
      language: 'ar',
      body: { message: 'اختر أحد الخيارات', errors: { choice: 'استخدم مفتاحًا من 1 إلى 2' } },
    });
    expect(renderText('ar', { id: 'errors.rateLimited.seconds', values: { seconds: 2 } })).toBe(
      'طلبات كثيرة جدًا، حاول مرة أخرى بعد ثانيتين',
    );
    expect(renderText('en', { id: 'errors.rateLimited.seconds', values: { seconds: 1 } })).toBe(
      'Too many requests, try again in 1 second',
    );
  });
});

/** Bodies that break every rule the contract words itself, and the schemas they go to. */
const refused: [z.ZodType, unknown][] = [
  [createQuestionBodySchema, badQuestion],
  [
    createQuestionBodySchema,
    { type: 'MC', question: 'x'.repeat(200), choices: ['a'], tags: ['', 'x'.repeat(30), 'a b'] },
  ],
  [createQuestionBodySchema, { type: 'MC', question: 'Which?', choices: ['a', ' '], tags: [] }],
  [createQuestionBodySchema, { type: 'RS', question: 'Rate', choices: ['1'], tags: [] }],
  [createQuestionBodySchema, { type: 'N', question: 'How many?', choices: ['5'], tags: [] }],
  [createQuestionBodySchema, { type: 'N', question: 'How many?', choices: ['x', '1'], tags: [] }],
  [createQuestionBodySchema, { type: 'N', question: 'How many?', choices: ['5', '1'], tags: [] }],
  [createQuestionBodySchema, { type: 'MC', question: 'Which?', choices: ['a', 'b'], tags: [], language: 'xx' }],
  [
    registerBodySchema,
    { firstName: '\u200b', birthDate: '1900-01-01', gender: 'F', livingIn: 1, email: 'x', password: 'p' },
  ],
  [
    registerBodySchema,
    {
      firstName: 'A\nB',
      birthDate: '01/01/1990',
      gender: 'F',
      livingIn: 1,
      email: 'a@b.co',
      password: 'x'.repeat(200),
    },
  ],
  [
    accountUpdateBodySchema,
    { firstName: 'x'.repeat(60), birthDate: '1990-01-01', livingIn: 1, favoriteTopic: 'x'.repeat(60) },
  ],
  [settingsUpdateBodySchema, { email: 'a@b.co', notification: true, language: 'nl', question_languages: [] }],
  [settingsUpdateBodySchema, { email: 'a@b.co', notification: true, question_languages: ['xx'] }],
  [moderationActionBodySchema, { target: 'user', id: 1, action: 'warn', reason: '' }],
];

describe('the contract’s validation texts', () => {
  it('are each found in the catalogs, and written in English exactly as the contract words them', () => {
    let seen = 0;
    for (const [schema, body] of refused) {
      const result = schema.safeParse(body);
      expect(result.success, JSON.stringify(body)).toBe(false);
      for (const issue of result.error!.issues) {
        const { code, message, path, ...params } = issue;
        void path;
        const text = issueText({ keyword: code, message, params });
        expect(text.english, `${message} has no id: add it to the catalogs`).toBeUndefined();
        expect(renderText('en', text)).toBe(message);
        expect(Object.hasOwn(catalogs.de, text.id)).toBe(true);
        seen += 1;
      }
    }
    expect(seen).toBeGreaterThan(20);
  });
});
