import { api, settingsSchema, tokenResponseSchema } from '@pollscope/contract';
import { scrypt } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SYSTEM_EMAIL } from '../../db/schema.js';
import { client, createTestApp, signUp, type TestContext } from '../../test/helper.js';

// scrypt is watched, not replaced, to see that a login for an unknown email hashes like any other.
vi.mock('node:crypto', async (importOriginal) => {
  const crypto = await importOriginal<typeof import('node:crypto')>();
  return { ...crypto, scrypt: vi.fn(crypto.scrypt) };
});

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());
beforeEach(() => {
  vi.mocked(scrypt).mockClear();
});

/** The scrypt cost of each hash computed since the last clear. */
function hashCosts(): number[] {
  return vi.mocked(scrypt).mock.calls.map((args) => (args[3] as { N: number }).N);
}

describe('signing in', () => {
  it('gives a token for the right password', async () => {
    const user = await signUp(ctx);
    const reply = await client(ctx.app).raw('POST', api.login, { username: user.email, password: 'correct horse' });
    expect(reply.status).toBe(200);
    const { token } = reply.parse(tokenResponseSchema);
    expect((await client(ctx.app, token).get(api.settings, settingsSchema)).email).toBe(user.email);
  });

  it('takes the email as `username` or as `email`, in any case and with spaces around it', async () => {
    const user = await signUp(ctx);
    for (const credentials of [
      { username: user.email, password: 'correct horse' },
      { email: user.email, password: 'correct horse' },
      { email: ` ${user.email.toUpperCase()} `, password: 'correct horse' },
    ]) {
      const reply = await client(ctx.app).raw('POST', api.login, credentials);
      expect(reply.status, JSON.stringify(credentials)).toBe(200);
      const { token } = reply.parse(tokenResponseSchema.strict());
      expect(token).not.toBe(user.token);
      expect((await client(ctx.app, token).raw('GET', api.account)).status).toBe(200);
    }
  });

  it('answers a wrong password with 400 and the message the screen shows, and no token', async () => {
    const user = await signUp(ctx);
    for (const credentials of [
      { email: user.email, password: 'Correct horse' },
      { username: 'not-an-email', password: 'correct horse' },
      // The account that asks the quiz questions cannot sign in.
      { email: SYSTEM_EMAIL, password: '!' },
    ]) {
      const reply = await client(ctx.app).raw('POST', api.login, credentials);
      expect(reply.status).toBe(400);
      expect(reply.error()).toEqual({ message: 'Wrong username or password!' });
    }
  });

  it('names the missing field of incomplete credentials', async () => {
    const noPassword = await client(ctx.app).raw('POST', api.login, { email: 'someone@example.com' });
    expect(noPassword.status).toBe(400);
    expect(noPassword.error().errors).toHaveProperty('password');
    const noEmail = await client(ctx.app).raw('POST', api.login, { password: 'correct horse' });
    expect(noEmail.status).toBe(400);
    expect(noEmail.error().errors).toEqual({ email: 'Email is required' });
    const empty = await client(ctx.app).raw('POST', api.login, { email: '', password: '' });
    expect(Object.keys(empty.error().errors ?? {}).sort()).toEqual(['email', 'password']);
  });

  it('answers an unknown email exactly as a wrong password, after the same hashing work', async () => {
    const user = await signUp(ctx);
    vi.mocked(scrypt).mockClear();
    const wrongPassword = await client(ctx.app).raw('POST', api.login, { email: user.email, password: 'wrong horse' });
    const wrongPasswordCosts = hashCosts();
    vi.mocked(scrypt).mockClear();
    const unknownEmail = await client(ctx.app).raw('POST', api.login, {
      email: 'nobody-here@example.com',
      password: 'wrong horse',
    });
    const unknownEmailCosts = hashCosts();

    expect(unknownEmail.status).toBe(wrongPassword.status);
    expect(unknownEmail.json()).toEqual(wrongPassword.json());
    expect(unknownEmail.error()).toEqual({ message: 'Wrong username or password!' });
    expect(unknownEmail.headers['content-length']).toBe(wrongPassword.headers['content-length']);
    expect(wrongPasswordCosts).toEqual([ctx.config.passwordHashCost]);
    expect(unknownEmailCosts).toEqual(wrongPasswordCosts);
  });
});

describe('signing out', () => {
  it('answers 204 with no body, and the token no longer works', async () => {
    const user = await signUp(ctx);
    const reply = await ctx.app.inject({
      method: 'POST',
      url: api.logout,
      headers: { authorization: `Token ${user.token}` },
    });
    expect(reply.statusCode).toBe(204);
    expect(reply.body).toBe('');
    const after = await user.api.raw('GET', api.account);
    expect(after.status).toBe(401);
    expect(after.error()).toEqual({ message: 'Your session has ended, sign in again' });
    expect((await user.api.raw('POST', api.logout)).status).toBe(401);
  });
});
