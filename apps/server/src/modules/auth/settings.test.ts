import { api, settingsSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, signUp, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const signIn = (email: string, password: string) => client(ctx.app).raw('POST', api.login, { email, password });

describe('settings', () => {
  it('show the email and the notification choice, on by default', async () => {
    const user = await signUp(ctx);
    const reply = await user.api.raw('GET', api.settings);
    expect(reply.status).toBe(200);
    expect(reply.parse(settingsSchema.strict())).toEqual({ email: user.email.toLowerCase(), notification: true });
  });

  it('save a new email and notification choice and answer with them', async () => {
    const user = await signUp(ctx);
    const email = `New.Address${user.id}@Example.com`;
    const reply = await user.api.raw('POST', api.settings, { email, notification: false });
    expect(reply.status).toBe(200);
    expect(reply.parse(settingsSchema.strict())).toEqual({ email: email.toLowerCase(), notification: false });
    expect(await user.api.get(api.settings, settingsSchema)).toEqual({ email: email.toLowerCase(), notification: false });
    expect((await signIn(email, 'correct horse')).status).toBe(200);
    expect((await signIn(user.email, 'correct horse')).status).toBe(400);
  });

  it('change the password when one is given, and keep it when it is left empty', async () => {
    const user = await signUp(ctx);
    expect((await user.api.raw('POST', api.settings, { email: user.email, notification: true, password: '' })).status).toBe(200);
    expect((await signIn(user.email, 'correct horse')).status).toBe(200);
    expect((await user.api.raw('POST', api.settings, { email: user.email, notification: true, password: 'battery staple' })).status).toBe(200);
    expect((await signIn(user.email, 'battery staple')).status).toBe(200);
    expect((await signIn(user.email, 'correct horse')).status).toBe(400);
  });

  it('refuse an email someone else has, whatever its case, with 409 and change nothing', async () => {
    const user = await signUp(ctx);
    const other = await signUp(ctx);
    const reply = await user.api.raw('POST', api.settings, { email: other.email.toUpperCase(), notification: false, password: 'battery staple' });
    expect(reply.status).toBe(409);
    expect(reply.error()).toEqual({ message: 'This email is already registered', errors: { email: 'This email is already registered' } });
    expect(await user.api.get(api.settings, settingsSchema)).toEqual({ email: user.email.toLowerCase(), notification: true });
    expect((await signIn(user.email, 'correct horse')).status).toBe(200);
  });

  it('refuse bad input field by field and change nothing', async () => {
    const user = await signUp(ctx);
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'not an email', notification: true }, 'email'],
      [{ notification: true }, 'email'],
      [{ email: user.email, notification: 'yes' }, 'notification'],
      [{ email: user.email }, 'notification'],
      [{ email: user.email, notification: true, password: 'short' }, 'password'],
      [{ email: user.email, notification: true, password: 'x'.repeat(129) }, 'password'],
    ];
    for (const [body, field] of cases) {
      const reply = await user.api.raw('POST', api.settings, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(reply.error().errors ?? {}), JSON.stringify(body)).toEqual([field]);
    }
    expect(await user.api.get(api.settings, settingsSchema)).toEqual({ email: user.email.toLowerCase(), notification: true });
    expect((await signIn(user.email, 'correct horse')).status).toBe(200);
  });
});
