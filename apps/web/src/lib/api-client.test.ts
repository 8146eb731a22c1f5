import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../testing/api-stub';
import { ApiError, apiGet, apiPost, onUnauthorized } from './api-client';
import { getToken, storeToken } from './auth-token';

describe('api client', () => {
  it('sends JSON and the stored token', async () => {
    storeToken('t0k3n');
    const { requests } = stubApi(() => ({ body: { ok: true } }));
    expect(await apiGet('/api/polls/stats/')).toEqual({ ok: true });
    expect(requests[0].headers).toMatchObject({ Accept: 'application/json', Authorization: 'Token t0k3n' });
  });

  it('returns the error body instead of throwing', async () => {
    stubApi(() => ({ status: 409, body: { message: 'Already voted', errors: { choice: 'Once only' } } }));
    const result = await apiPost('/api/polls/answer/1/', { choice: 1 });
    expect(result).toBeInstanceOf(ApiError);
    expect(result).toMatchObject({ status: 409, message: 'Already voted', errors: { choice: 'Once only' } });
  });

  it.each([401, 403])('drops the token and reports the ended session on %i', async (status) => {
    storeToken('t0k3n');
    stubApi(() => ({ status, body: { message: 'No' } }));
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    await apiGet('/api/polls/stats/');
    stop();
    expect(getToken()).toBeNull();
    expect(listener).toHaveBeenCalledOnce();
  });

  it('leaves sign-in failures alone', async () => {
    storeToken('t0k3n');
    const { requests } = stubApi(() => ({ status: 400, body: { message: 'Wrong username or password!' } }));
    const listener = vi.fn();
    const stop = onUnauthorized(listener);
    const result = await apiPost('/api/login/', { email: 'a@b.c', password: 'x' }, { anonymous: true });
    stop();
    expect(result).toMatchObject({ message: 'Wrong username or password!' });
    expect(requests[0].headers.Authorization).toBeUndefined();
    expect(getToken()).toBe('t0k3n');
    expect(listener).not.toHaveBeenCalled();
  });

  it('turns a network failure into an error value', async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    const result = await apiGet('/api/polls/stats/');
    expect(result).toBeInstanceOf(ApiError);
    expect(result).toMatchObject({ status: 0 });
  });
});
