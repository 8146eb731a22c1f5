import { answerBodySchema, api, loginBodySchema, questionSchema, tokenResponseSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import {
  ask,
  client,
  countingStatements,
  createTestApp,
  signUp,
  type TestContext,
  type TestUser,
} from '../../test/helper.js';
import type { Db } from '../../db/index.js';
import { ViewerStates } from '../../views/viewer-states.js';
import { sessionsOf } from './sessions.js';

const IDLE_SECONDS = 3600;

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ tokenIdleSeconds: IDLE_SECONDS });
});
afterAll(() => ctx.close());

/** Pretends the user's sessions were last used this many seconds ago. */
async function idleFor(user: TestUser, seconds: number): Promise<void> {
  const lastUsed = new Date(Date.now() - seconds * 1000).toISOString();
  await ctx.database.db
    .updateTable('sessions')
    .set({ last_used_at: lastUsed })
    .where('user_id', '=', user.id)
    .execute();
  // Changed behind the server's back: what it keeps of sessions is read again.
  ctx.app.memory.sessions.forgetAll();
}

async function signIn(user: TestUser) {
  const { token } = await client(ctx.app).post(
    api.login,
    loginBodySchema,
    { email: user.email, password: 'correct horse' },
    tokenResponseSchema,
  );
  return client(ctx.app, token);
}

describe('sessions', () => {
  it('reads the idle lifetime from TOKEN_IDLE_SECONDS, 30 days when unset', () => {
    expect(loadConfig({ TOKEN_IDLE_SECONDS: '900' }).tokenIdleSeconds).toBe(900);
    expect(loadConfig({}).tokenIdleSeconds).toBe(30 * 24 * 3600);
  });

  it('keeps a token that is used, and ends one left idle too long', async () => {
    const user = await signUp(ctx);
    await idleFor(user, IDLE_SECONDS - 60);
    expect((await user.api.raw('GET', api.myStats)).status).toBe(200);
    // Uses are written every few seconds; then the session lies idle.
    await ctx.app.memory.sessions.writeTouches();

    await idleFor(user, IDLE_SECONDS + 1);
    const expired = await user.api.raw('GET', api.myStats);
    expect(expired.status).toBe(401);
    expect(expired.error()).toEqual({ message: 'Your session has ended, sign in again' });
    // An ended session is gone, not merely idle.
    await idleFor(user, 0);
    expect((await user.api.raw('GET', api.myStats)).status).toBe(401);
  });

  it('renews the last use of a session that is used', async () => {
    const user = await signUp(ctx);
    await idleFor(user, IDLE_SECONDS - 60);
    await user.api.raw('GET', api.myStats);
    await ctx.app.memory.sessions.writeTouches();
    const session = await ctx.database.db
      .selectFrom('sessions')
      .select('last_used_at')
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(Date.now() - Date.parse(session.last_used_at)).toBeLessThan(60_000);
  });

  it('ends every other session when the password changes, and keeps the one that changed it', async () => {
    const user = await signUp(ctx);
    const laptop = await signIn(user);
    const phone = await signIn(user);
    // In use, so the server keeps it.
    expect((await phone.raw('GET', api.myStats)).status).toBe(200);
    const changed = await laptop.raw('POST', api.settings, {
      email: user.email,
      notification: true,
      password: 'a new password',
      current_password: 'correct horse',
    });
    expect(changed.status).toBe(200);

    expect((await laptop.raw('GET', api.myStats)).status).toBe(200);
    expect((await phone.raw('GET', api.myStats)).status).toBe(401);
    expect((await user.api.raw('GET', api.myStats)).status).toBe(401);
    expect(
      (await client(ctx.app).raw('POST', api.login, { email: user.email, password: 'correct horse' })).status,
    ).toBe(400);
    expect(
      (await client(ctx.app).raw('POST', api.login, { email: user.email, password: 'a new password' })).status,
    ).toBe(200);
  });

  it('keeps the other sessions when settings change without a new password', async () => {
    const user = await signUp(ctx);
    const phone = await signIn(user);
    expect(
      (await user.api.raw('POST', api.settings, { email: user.email, notification: false, password: '' })).status,
    ).toBe(200);
    expect((await phone.raw('GET', api.myStats)).status).toBe(200);
  });

  it('ends the session on logout', async () => {
    const user = await signUp(ctx);
    const phone = await signIn(user);
    expect((await user.api.raw('POST', api.logout)).status).toBe(204);
    expect((await user.api.raw('GET', api.myStats)).status).toBe(401);
    expect((await phone.raw('GET', api.myStats)).status).toBe(200);
  });
});

/** Viewer states of their own, as a new instance has: none kept yet. */
const noViewers = () => new ViewerStates(1024 * 1024, ctx.app.dialect);

describe('sessions kept in memory by an instance alone', () => {
  /** The app's database, with the result of each session read held back while `hold` is on. */
  function withHeldReads() {
    let gate = Promise.resolve();
    let release = () => {};
    let readDone = () => {};
    let read = Promise.resolve();
    const { db } = ctx.database;
    const held = new Proxy(db, {
      get(target, property) {
        // The session's read runs through executeQuery (compiled once); its result waits, the
        // database is free meanwhile.
        if (property === 'executeQuery')
          return async (...args: Parameters<Db['executeQuery']>) => {
            const result = await target.executeQuery(...args);
            readDone();
            await gate;
            return result;
          };
        const value = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return {
      db: held,
      hold: () => {
        gate = new Promise<void>((resolve) => (release = resolve));
        read = new Promise<void>((resolve) => (readDone = resolve));
      },
      /**
       * Once the held read has its rows: on PostgreSQL it runs on a connection of its own, maybe after what the test
       * does next.
       */
      read: () => read,
      release: () => release(),
    };
  }

  it('reads a person it does not know with their state in one statement, and reads neither again', async () => {
    const author = await signUp(ctx);
    const user = await signUp(ctx);
    const question = await ask(author);
    await user.api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
    const { db } = ctx.database;
    const { db: counted, statements } = countingStatements(db);
    const viewers = noViewers();
    const sessions = sessionsOf(counted, { keep: true, maxKept: 100, viewers });
    try {
      const found = (await sessions.find(user.token, IDLE_SECONDS))!;
      expect(statements()).toBe(1);
      expect((await viewers.get(counted, user.id, found.stateVersion)).votes.get(question)).toMatchObject({
        choice: 1,
      });
      // Known now, the session is kept, and so is the state its version labels.
      expect(await sessions.find(user.token, IDLE_SECONDS)).toEqual(found);
      expect(statements()).toBe(1);
    } finally {
      await sessions.close();
    }
  });

  it('reads the sessions of concurrent requests it does not know in one statement', async () => {
    const people = [await signUp(ctx), await signUp(ctx), await signUp(ctx)];
    const { db: counted, statements } = countingStatements(ctx.database.db);
    const sessions = sessionsOf(counted, { keep: true, maxKept: 100, viewers: noViewers() });
    try {
      const found = await Promise.all(people.map((person) => sessions.find(person.token, IDLE_SECONDS)));
      expect(found.map((session) => session?.userId)).toEqual(people.map((person) => person.id));
      expect(statements()).toBe(1);
      expect(await sessions.find('no-such-token', IDLE_SECONDS)).toBeNull();
    } finally {
      await sessions.close();
    }
  });

  it('read again after a sign-out that happened while the session was being read', async () => {
    const user = await signUp(ctx);
    const held = withHeldReads();
    const sessions = sessionsOf(held.db, { keep: true, maxKept: 100, viewers: noViewers() });
    try {
      held.hold();
      const inFlight = sessions.find(user.token, IDLE_SECONDS);
      await held.read();
      // Signed out elsewhere in this instance while the read is under way.
      await ctx.database.db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
      sessions.changed(user.id);
      held.release();
      expect(await inFlight).toMatchObject({ userId: user.id });
      expect(await sessions.find(user.token, IDLE_SECONDS)).toBeNull();
    } finally {
      await sessions.close();
    }
  });

  it('keeps the version a change made here moved, over an older one read meanwhile', async () => {
    const user = await signUp(ctx);
    const held = withHeldReads();
    const sessions = sessionsOf(held.db, { keep: true, maxKept: 100, viewers: noViewers() });
    try {
      const before = (await sessions.find(user.token, IDLE_SECONDS))!.stateVersion;
      sessions.forgetAll();
      held.hold();
      const inFlight = sessions.find(user.token, IDLE_SECONDS);
      await held.read();
      // A like committed while the read is under way: it read the version before.
      await ctx.database.db
        .updateTable('users')
        .set({ state_version: before + 1 })
        .where('id', '=', user.id)
        .execute();
      sessions.stateMoved(user.id, before + 1);
      held.release();
      await inFlight;
      expect((await sessions.find(user.token, IDLE_SECONDS))!.stateVersion).toBe(before + 1);
    } finally {
      await sessions.close();
    }
  });
});
