import { api } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
let person: TestUser;
let question: number;
beforeAll(async () => {
  ctx = await createTestApp();
  person = await signUp(ctx);
  question = await ask(person);
});
afterAll(() => ctx.close());

/** The status and Cache-Control of a GET, with the person's token or without one. */
async function cacheControlOf(
  url: string,
  {
    token,
    accept = 'application/json',
    method = 'GET',
  }: { token?: string; accept?: string; method?: 'GET' | 'HEAD' } = {},
) {
  const response = await ctx.app.inject({
    method,
    url,
    headers: { accept, ...(token ? { authorization: `Token ${token}` } : {}) },
  });
  return { url, status: response.statusCode, cacheControl: response.headers['cache-control'] };
}

describe('answers to a signed-in person', () => {
  it('carry Cache-Control: no-store, so that no shared cache keeps what is theirs', async () => {
    const urls = [
      api.settings,
      api.account,
      api.notifications,
      api.feed,
      api.question(question),
      api.categories,
      api.notificationsLive,
    ];
    for (const url of urls)
      expect(await cacheControlOf(url, { token: person.token })).toEqual({
        url,
        status: 200,
        cacheControl: 'no-store',
      });
  });

  it('carry it when they fail too', async () => {
    expect(await cacheControlOf(api.question(999_999), { token: person.token })).toEqual({
      url: api.question(999_999),
      status: 404,
      cacheControl: 'no-store',
    });
  });

  it('carry it on live streams, which proxies must not rewrite either', async () => {
    for (const url of [api.live(question), api.notificationsLive]) {
      expect(await cacheControlOf(url, { token: person.token, accept: 'text/event-stream', method: 'HEAD' })).toEqual({
        url,
        status: 200,
        cacheControl: 'no-store, no-transform',
      });
    }
  });

  it('are the only ones: a public call without a token may be kept', async () => {
    expect((await cacheControlOf(api.categories)).cacheControl).toBeUndefined();
  });
});
