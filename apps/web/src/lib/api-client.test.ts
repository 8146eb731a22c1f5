import { api } from '@pollscope/contract';
import { describe, expect, it, vi } from 'vitest';
import { stubApi, type StubReply } from '../testing/api-stub';
import { ApiError, apiGet, apiPost, onUnauthorized } from './api-client';
import { apiPath } from './api-path';
import { getToken, storeToken } from './auth-token';

/** Makes one call with a token stored, and tells what the call returned and what became of the session. */
async function callWithSession(reply: StubReply<'GET /api/polls/stats/'>) {
  storeToken('t0k3n');
  stubApi().on('GET /api/polls/stats/', reply);
  const listener = vi.fn();
  const stop = onUnauthorized(listener);
  const result = await apiGet(apiPath('/api/polls/stats/'));
  stop();
  return { result, token: getToken(), ended: listener.mock.calls.length > 0 };
}

describe('api client', () => {
  it('sends JSON and the stored token', async () => {
    storeToken('t0k3n');
    const { requests, on } = stubApi();
    on('GET /api/polls/stats/', { body: { question: 1, answer: 2, like: 3 } });
    expect(await apiGet(apiPath('/api/polls/stats/'))).toEqual({ question: 1, answer: 2, like: 3 });
    expect(requests[0].headers).toMatchObject({ Accept: 'application/json', Authorization: 'Token t0k3n' });
  });

  it('returns the error body instead of throwing', async () => {
    const { requests, on } = stubApi();
    on('POST /api/polls/answer/:id/', {
      status: 409,
      body: { message: 'Already voted', errors: { choice: 'Once only' } },
    });
    const result = await apiPost('/api/polls/answer/:id/', { params: { id: 1 }, body: { choice: 1 } });
    expect(requests).toMatchObject([{ method: 'POST', path: '/api/polls/answer/1/', body: { choice: 1 } }]);
    expect(result).toBeInstanceOf(ApiError);
    expect(result).toMatchObject({ status: 409, message: 'Already voted', errors: { choice: 'Once only' } });
  });

  it('drops the token and reports the ended session on 401', async () => {
    const after = await callWithSession({ status: 401, body: { message: 'Your session has ended, sign in again' } });
    expect(after).toMatchObject({ token: null, ended: true });
  });

  it('keeps the session on a 403 that only says "not allowed"', async () => {
    const after = await callWithSession({ status: 403, body: { message: 'You cannot connect to this user' } });
    expect(after).toMatchObject({
      token: 't0k3n',
      ended: false,
      result: { status: 403, message: 'You cannot connect to this user' },
    });
  });

  it('ends the session on a 403 that challenges the token', async () => {
    const after = await callWithSession({
      status: 403,
      body: { message: 'Token not accepted' },
      headers: { 'WWW-Authenticate': 'Token' },
    });
    expect(after).toMatchObject({ token: null, ended: true });
  });

  it('leaves sign-in failures alone', async () => {
    storeToken('t0k3n');
    const { requests, on } = stubApi();
    on('POST /api/login/', { status: 400, body: { message: 'Wrong username or password!' } });
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    const result = await apiPost('/api/login/', { body: { email: 'a@b.c', password: 'x' } }, { anonymous: true });
    stop();
    expect(result).toMatchObject({ message: 'Wrong username or password!' });
    expect(requests[0].headers.Authorization).toBeUndefined();
    expect(getToken()).toBe('t0k3n');
    expect(listener).not.toHaveBeenCalled();
  });

  it('turns a network failure into an error value', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const result = await apiGet(apiPath('/api/polls/stats/'));
    expect(result).toBeInstanceOf(ApiError);
    expect(result).toMatchObject({ status: 0, said: { id: 'api.error.unreachable' } });
  });

  it('names its own message where the server gave none, for the screen to say in its language', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response('<html>Bad gateway</html>', { status: 502 }))),
    );
    const result = await apiGet(apiPath('/api/polls/stats/'));
    expect(result).toMatchObject({
      status: 502,
      message: 'Request failed (502)',
      said: { id: 'api.error.failed', values: { status: '502' } },
    });
  });
});

describe('api paths', () => {
  it('fill the pattern’s parameters and the query in, URL-encoded, as the router’s prefetches name the same data', () => {
    expect(apiPath('/api/polls/tag/:tag/', { params: { tag: 'tea & coffee' } })).toBe(api.tag('tea & coffee'));
    expect(apiPath('/api/polls/relate/:a/:b/', { params: { a: 3, b: 12 } })).toBe(api.relate(3, 12));
    expect(apiPath('/api/polls/search/', { query: { q: 'tea time?' } })).toBe(api.search('tea time?'));
    expect(apiPath('/api/moderation/reports/', { query: { status: 'closed' } })).toBe(
      `${api.moderationReports}?status=closed`,
    );
  });
});
