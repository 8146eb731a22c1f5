import { api, NAME_HAS_INVISIBLE, NAME_REQUIRED, settingsSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** The spec's texts. */
const CURRENT_PASSWORD_NEEDED = 'Enter your current password to change your email or password';
const WRONG_CURRENT_PASSWORD = 'Wrong password';
const signIn = (email: string, password: string) => client(ctx.app).raw('POST', api.login, { email, password });
const settingsOf = (user: TestUser) => user.api.get(api.settings, settingsSchema);
const asBefore = (user: TestUser) => ({
  email: user.email.toLowerCase(),
  notification: true,
  pending_email: null,
  language: 'en',
  question_languages: null,
});

describe('settings', () => {
  it('show the email, the notification choice, on by default, and no email waiting', async () => {
    const user = await signUp(ctx);
    const reply = await user.api.raw('GET', api.settings);
    expect(reply.status).toBe(200);
    expect(reply.parse(settingsSchema.strict())).toEqual(asBefore(user));
  });

  it('save the notification choice without the current password', async () => {
    const user = await signUp(ctx);
    const reply = await user.api.raw('POST', api.settings, {
      email: ` ${user.email.toUpperCase()} `,
      notification: false,
      password: '',
    });
    expect(reply.status).toBe(200);
    expect(reply.parse(settingsSchema.strict())).toEqual({ ...asBefore(user), notification: false });
    expect((await signIn(user.email, 'correct horse')).status).toBe(200);
  });

  it('keep the email until the new one is confirmed, and show the new one as waiting', async () => {
    const user = await signUp(ctx);
    const email = `New.Address${user.id}@Example.com`;
    const reply = await user.api.raw('POST', api.settings, {
      email,
      notification: false,
      current_password: 'correct horse',
    });
    expect(reply.status).toBe(200);
    const waiting = { ...asBefore(user), notification: false, pending_email: email.toLowerCase() };
    expect(reply.parse(settingsSchema.strict())).toEqual(waiting);
    expect(await settingsOf(user)).toEqual(waiting);
    expect((await signIn(user.email, 'correct horse')).status).toBe(200);
    expect((await signIn(email, 'correct horse')).status).toBe(400);
  });

  it('change the password given the current one, and keep it when the new one is left empty', async () => {
    const user = await signUp(ctx);
    expect(
      (
        await user.api.raw('POST', api.settings, {
          email: user.email,
          notification: true,
          password: 'battery staple',
          current_password: 'correct horse',
        })
      ).status,
    ).toBe(200);
    expect((await signIn(user.email, 'battery staple')).status).toBe(200);
    expect((await signIn(user.email, 'correct horse')).status).toBe(400);
  });

  // Issue 30, finding 4: a session alone, a stolen token, took the account.
  it('refuse a new email or password without the right current password, with 400 on current_password, and change nothing', async () => {
    const user = await signUp(ctx);
    const changes = [
      { email: `taken-over-${user.id}@example.com`, notification: false },
      { email: user.email, notification: false, password: 'battery staple' },
      { email: `taken-over-${user.id}@example.com`, notification: false, password: 'battery staple' },
    ];
    for (const change of changes) {
      for (const [currentPassword, message] of [
        [undefined, CURRENT_PASSWORD_NEEDED],
        ['', CURRENT_PASSWORD_NEEDED],
        ['Correct horse', WRONG_CURRENT_PASSWORD],
      ] as const) {
        const body = { ...change, ...(currentPassword === undefined ? {} : { current_password: currentPassword }) };
        const reply = await user.api.raw('POST', api.settings, body);
        expect(reply.status, JSON.stringify(body)).toBe(400);
        expect(reply.error(), JSON.stringify(body)).toEqual({ message, errors: { current_password: message } });
      }
    }
    expect(await settingsOf(user)).toEqual(asBefore(user));
    expect((await signIn(user.email, 'correct horse')).status).toBe(200);
    expect((await signIn(user.email, 'battery staple')).status).toBe(400);
  });

  it('refuse an email someone else has, whatever its case, with 409 and change nothing', async () => {
    const user = await signUp(ctx);
    const other = await signUp(ctx);
    const reply = await user.api.raw('POST', api.settings, {
      email: other.email.toUpperCase(),
      notification: false,
      password: 'battery staple',
      current_password: 'correct horse',
    });
    expect(reply.status).toBe(409);
    expect(reply.error()).toEqual({
      message: 'This email is already registered',
      errors: { email: 'This email is already registered' },
    });
    expect(await settingsOf(user)).toEqual(asBefore(user));
    expect((await signIn(user.email, 'correct horse')).status).toBe(200);
  });

  it('refuse bad input field by field and change nothing', async () => {
    const user = await signUp(ctx);
    const cases: [Record<string, unknown>, string][] = [
      [{ email: 'not an email', notification: true }, 'email'],
      [{ notification: true }, 'email'],
      [{ email: user.email, notification: 'yes' }, 'notification'],
      [{ email: user.email }, 'notification'],
      [{ email: user.email, notification: true, password: 'short', current_password: 'correct horse' }, 'password'],
      [
        { email: user.email, notification: true, password: 'x'.repeat(129), current_password: 'correct horse' },
        'password',
      ],
      [
        { email: user.email, notification: true, password: 'battery staple', current_password: 'x'.repeat(129) },
        'current_password',
      ],
    ];
    for (const [body, field] of cases) {
      const reply = await user.api.raw('POST', api.settings, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(reply.error().errors ?? {}), JSON.stringify(body)).toEqual([field]);
    }
    expect(await settingsOf(user)).toEqual(asBefore(user));
    expect((await signIn(user.email, 'correct horse')).status).toBe(200);
  });
});

// Issue 30, finding 8: names with line breaks, U+202E or only a zero-width space were taken, and shown in mail.
describe('a first name', () => {
  const invisible = [
    ['a line break', 'user\n\nURGENT: confirm at http://evil.example/x', NAME_HAS_INVISIBLE],
    ['a carriage return', 'Ann\rBob', NAME_HAS_INVISIBLE],
    ['a tab', 'Ann\tBob', NAME_HAS_INVISIBLE],
    ['a line separator', 'Ann\u2028Bob', NAME_HAS_INVISIBLE],
    ['a right-to-left override', 'Ann\u202Egpj.exe', NAME_HAS_INVISIBLE],
    ['a zero-width space inside', 'An\u200Bn', NAME_HAS_INVISIBLE],
    ['a zero-width joiner', 'An\u200Dn', NAME_HAS_INVISIBLE],
    ['only a zero-width space', '\u200B', NAME_REQUIRED],
    ['only spaces and a zero-width space', ' \u200B ', NAME_REQUIRED],
    ['only a Hangul filler', '\u3164', NAME_REQUIRED],
    ['only spaces', '   ', NAME_REQUIRED],
  ] as const;

  for (const [what, firstName, message] of invisible) {
    it(`is refused with ${what}, at registration and in personal info`, async () => {
      const registering = await client(ctx.app).raw('POST', api.register, {
        firstName,
        birthDate: '1990-06-15',
        gender: 'F',
        livingIn: 840,
        email: `named-${Date.now()}-${Math.random()}@example.com`,
        password: 'correct horse',
      });
      expect(registering.status).toBe(400);
      expect(registering.error().errors).toEqual({ firstName: message });

      const user = await signUp(ctx, { firstName: 'Ann' });
      const renaming = await user.api.raw('POST', api.account, {
        firstName,
        birthDate: '1990-06-15',
        livingIn: 840,
        favoriteCategory: null,
        favoriteTopic: null,
      });
      expect(renaming.status).toBe(400);
      expect(renaming.error().errors).toEqual({ firstName: message });
    });
  }

  it('may hold letters of any script, accents, apostrophes, hyphens, spaces and emoji', async () => {
    for (const firstName of ['Zoë', "O'Brien", 'Anne-Marie', 'Mary Ann', 'محمد', '李', 'Ana 👩‍👩‍👧']) {
      const user = await signUp(ctx, { firstName });
      const name = await ctx.database.db
        .selectFrom('users')
        .select('first_name')
        .where('id', '=', user.id)
        .executeTakeFirstOrThrow();
      expect(name.first_name).toBe(firstName);
    }
  });
});
