import { api, LANGUAGE_COOKIE, registerBodySchema, settingsSchema, type RegisterBody } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const settingsOf = (user: TestUser) => user.api.get(api.settings, settingsSchema);
/** What the settings form sends back unchanged, with `change` on top. */
const saving = (user: TestUser, change: Record<string, unknown>) =>
  user.api.raw('POST', api.settings, { email: user.email, notification: true, ...change });

describe('the languages in the settings', () => {
  it('are English and every question language for a new account', async () => {
    const user = await signUp(ctx);
    expect(await settingsOf(user)).toMatchObject({ language: 'en', question_languages: null });
  });

  it('are saved without the current password, kept when absent, and the question languages set back to all with null', async () => {
    const user = await signUp(ctx);
    const saved = await saving(user, { language: 'pt-BR', question_languages: ['pt', 'en', 'pt'] });
    expect(saved.status).toBe(200);
    expect(saved.parse(settingsSchema.strict())).toMatchObject({ language: 'pt-BR', question_languages: ['pt', 'en'] });
    expect(await settingsOf(user)).toMatchObject({ language: 'pt-BR', question_languages: ['pt', 'en'] });

    // A client that knows nothing of them leaves them as they are.
    expect((await saving(user, { notification: false })).status).toBe(200);
    expect(await settingsOf(user)).toMatchObject({
      notification: false,
      language: 'pt-BR',
      question_languages: ['pt', 'en'],
    });

    expect((await saving(user, { language: 'ar', question_languages: null })).status).toBe(200);
    expect(await settingsOf(user)).toMatchObject({ language: 'ar', question_languages: null });
  });

  it('refuse anything else with 400 on the field, and change nothing', async () => {
    const user = await signUp(ctx);
    expect((await saving(user, { language: 'ja', question_languages: ['ja'] })).status).toBe(200);
    const cases: [Record<string, unknown>, string][] = [
      [{ language: 'pt' }, 'language'],
      [{ language: 'EN' }, 'language'],
      [{ language: 'nl' }, 'language'],
      [{ language: null }, 'language'],
      [{ language: 7 }, 'language'],
      [{ question_languages: [] }, 'question_languages'],
      [{ question_languages: ['xx'] }, 'question_languages'],
      [{ question_languages: ['DE'] }, 'question_languages'],
      [{ question_languages: ['pt-BR'] }, 'question_languages'],
      [{ question_languages: 'de' }, 'question_languages'],
      [{ question_languages: Array(184).fill('de') }, 'question_languages'],
    ];
    for (const [change, field] of cases) {
      const reply = await saving(user, change);
      expect(reply.status, JSON.stringify(change)).toBe(400);
      expect(
        Object.keys(reply.error().errors ?? {}).map((key) => key.split('.')[0]),
        JSON.stringify(change),
      ).toEqual([field]);
    }
    expect(await settingsOf(user)).toMatchObject({ language: 'ja', question_languages: ['ja'] });
  });
});

describe('a new account’s language', () => {
  let registered = 0;
  /** Registers through the API with `headers`, and reads back the language stored. */
  async function registerWith(headers: Record<string, string>): Promise<string> {
    const body: RegisterBody = {
      firstName: 'Ada',
      birthDate: '1990-06-15',
      gender: 'F',
      livingIn: 840,
      email: `language${++registered}-${Date.now()}@example.com`,
      password: 'correct horse',
    };
    const reply = await ctx.app.inject({
      method: 'POST',
      url: api.register,
      headers: { accept: 'application/json', ...headers },
      payload: registerBodySchema.parse(body),
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const row = await ctx.database.db
      .selectFrom('users')
      .select('language')
      .where('email', '=', body.email)
      .executeTakeFirstOrThrow();
    return row.language;
  }

  it('is the best match of Accept-Language, by its q-values', async () => {
    expect(await registerWith({ 'accept-language': 'de-AT,de;q=0.9' })).toBe('de');
    expect(await registerWith({ 'accept-language': 'pt' })).toBe('pt-BR');
    expect(await registerWith({ 'accept-language': 'nl, en;q=0.2, fr;q=0.8' })).toBe('fr');
    expect(await registerWith({ 'accept-language': 'ja;q=0, es;q=0.5' })).toBe('es');
  });

  it('is the language switcher’s cookie before Accept-Language', async () => {
    expect(await registerWith({ cookie: `${LANGUAGE_COOKIE}=ja`, 'accept-language': 'de-AT,de;q=0.9' })).toBe('ja');
    expect(await registerWith({ cookie: `other=1; ${LANGUAGE_COOKIE}=pt-BR` })).toBe('pt-BR');
  });

  it('is English when nothing matches, or a cookie names no language of the site', async () => {
    expect(await registerWith({})).toBe('en');
    expect(await registerWith({ 'accept-language': 'nl-BE, zh;q=0.5, *;q=0.1' })).toBe('en');
    expect(await registerWith({ cookie: `${LANGUAGE_COOKIE}=klingon`, 'accept-language': 'it' })).toBe('it');
  });
});
