import { api } from '@pollscope/contract';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, type Config } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/index.js';
import { deleteAccount } from '../modules/auth/index.js';
import { createTestDatabase, type TestDatabase } from '../test/helper.js';
import { startServer } from '../test/server-process.js';
import { DEMO_LOGIN } from './demo.js';
import { isLoopbackHost, isOnThisMachine, seedDemoAtStart } from './demo-at-start.js';
import { SYSTEM_EMAIL } from '../db/schema.js';

const opened: { database: DatabaseHandle; testDatabase: TestDatabase }[] = [];
afterAll(async () => {
  for (const { database, testDatabase } of opened) {
    await database.close();
    await testDatabase.drop();
  }
});

/** A fresh database of its own, with the reference data and nobody yet. */
async function freshDatabase(): Promise<DatabaseHandle> {
  const testDatabase = await createTestDatabase();
  const database = openDatabase(testDatabase.url);
  opened.push({ database, testDatabase });
  return database;
}

/** Starts as `npm start` does, with SEED_DEMO, HOST and PUBLIC_URL as given; returns what was seeded and logged. */
async function start(database: DatabaseHandle, env: { SEED_DEMO?: string; HOST?: string; PUBLIC_URL?: string }) {
  const logged: { level: number; msg: string }[] = [];
  const log = pino(
    { level: 'info' },
    { write: (line: string) => logged.push(JSON.parse(line) as { level: number; msg: string }) },
  );
  const config: Pick<Config, 'seedDemo' | 'host' | 'publicUrl' | 'passwordHashCost'> = {
    ...loadConfig(env),
    passwordHashCost: 1024,
  };
  const seeded = await seedDemoAtStart(database.db, config, log);
  const people = await database.db.selectFrom('users').select('email').where('email', '!=', SYSTEM_EMAIL).execute();
  return {
    seeded,
    demo: people.some(({ email }) => email === DEMO_LOGIN.email),
    info: logged.filter(({ level }) => level === 30).map(({ msg }) => msg),
    warnings: logged.filter(({ level }) => level === 40).map(({ msg }) => msg),
  };
}

describe('the demo community at start', () => {
  it('counts as this machine only localhost, 127.0.0.1 and ::1, with any port', () => {
    for (const url of ['http://localhost:3000', 'http://LOCALHOST', 'https://127.0.0.1:8443', 'http://[::1]:3000'])
      expect(isOnThisMachine(url), url).toBe(true);
    for (const url of [
      'https://pollscope.example',
      'http://localhost.evil.example',
      'http://localhost@evil.example',
      'http://evil.example/localhost',
      'http://0.0.0.0:3000',
      'http://10.0.0.5:3000',
      'not a url',
    ])
      expect(isOnThisMachine(url), url).toBe(false);
  });

  it('counts as listening on this machine only localhost, 127.0.0.0/8 and ::1', () => {
    for (const host of [
      'localhost',
      'LOCALHOST',
      '127.0.0.1',
      '127.8.9.10',
      '::1',
      '[::1]',
      '0:0:0:0:0:0:0:1',
      '::ffff:127.0.0.1',
    ])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of [
      '0.0.0.0',
      '::',
      '[::]',
      '10.0.0.5',
      '192.168.1.2',
      '128.0.0.1',
      '::ffff:10.0.0.5',
      'pollscope.example',
      'localhost.evil.example',
      '127.0.0.1.evil.example',
    ])
      expect(isLoopbackHost(host), host).toBe(false);
  });

  it('reads SEED_DEMO as said outright, or unset', () => {
    expect(loadConfig({}).seedDemo).toBeNull();
    expect(loadConfig({ SEED_DEMO: '' }).seedDemo).toBeNull();
    expect(loadConfig({ SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(loadConfig({ SEED_DEMO: '0' }).seedDemo).toBe(false);
  });

  it('is seeded on a server listening on loopback with PUBLIC_URL unset or this machine, saying so, with no warning', async () => {
    // HOST's default is loopback: `npm start` on a new database shows the demo on this machine alone.
    expect(loadConfig({}).host).toBe('127.0.0.1');
    const unset = await start(await freshDatabase(), {});
    expect(unset).toMatchObject({ seeded: true, demo: true, warnings: [] });
    expect(unset.info).toEqual([
      `demo community seeded (this machine alone can reach the server): sign in as ${DEMO_LOGIN.email} with password ${DEMO_LOGIN.password}`,
    ]);
    expect(await start(await freshDatabase(), { HOST: '::1', PUBLIC_URL: 'http://127.0.0.1:3000' })).toMatchObject({
      seeded: true,
      demo: true,
      warnings: [],
    });
    expect(
      await start(await freshDatabase(), { HOST: 'localhost', PUBLIC_URL: 'http://localhost:3000', SEED_DEMO: '0' }),
    ).toMatchObject({ seeded: false, demo: false, info: [], warnings: [] });
  });

  it('is not seeded on a server listening on 0.0.0.0, even with PUBLIC_URL unset, and the log says why', async () => {
    const everywhere = await start(await freshDatabase(), { HOST: '0.0.0.0' });
    expect(everywhere).toMatchObject({ seeded: false, demo: false, warnings: [] });
    expect(everywhere.info).toEqual([
      'demo community not seeded: it listens on 0.0.0.0, which other machines may reach (HOST=127.0.0.1 with PUBLIC_URL unset seeds it, to try the app; SEED_DEMO=1 seeds it anyway)',
    ]);
    for (const HOST of ['::', '10.0.0.5', 'pollscope.example'])
      expect(await start(await freshDatabase(), { HOST, PUBLIC_URL: 'http://localhost:3000' }), HOST).toMatchObject({
        seeded: false,
        demo: false,
      });
  });

  it('is not seeded where PUBLIC_URL is elsewhere, even listening on loopback behind a proxy, and the log says why', async () => {
    const elsewhere = await start(await freshDatabase(), {
      HOST: '127.0.0.1',
      PUBLIC_URL: 'https://pollscope.example',
    });
    expect(elsewhere).toMatchObject({ seeded: false, demo: false, warnings: [] });
    expect(elsewhere.info).toEqual([
      'demo community not seeded: PUBLIC_URL https://pollscope.example is not this machine (HOST=127.0.0.1 with PUBLIC_URL unset seeds it, to try the app; SEED_DEMO=1 seeds it anyway)',
    ]);
  });

  it('is seeded elsewhere with SEED_DEMO=1, and then warned of at every start while the account exists', async () => {
    const database = await freshDatabase();
    const first = await start(database, { HOST: '127.0.0.1', PUBLIC_URL: 'https://pollscope.example', SEED_DEMO: '1' });
    expect(first).toMatchObject({ seeded: true, demo: true });
    expect(first.info).toEqual([
      `demo community seeded (SEED_DEMO=1): sign in as ${DEMO_LOGIN.email} with password ${DEMO_LOGIN.password}`,
    ]);
    expect(first.warnings).toHaveLength(1);
    expect(first.warnings[0]).toMatch(
      /^the demo account demo@pollscope\.app, whose password is published, exists on this server, and PUBLIC_URL https:\/\/pollscope\.example is not this machine: anyone can sign in as it/,
    );
    for (const SEED_DEMO of ['1', '0', undefined]) {
      const again = await start(database, { HOST: '127.0.0.1', PUBLIC_URL: 'https://pollscope.example', SEED_DEMO });
      expect(again).toMatchObject({ seeded: false, demo: true, warnings: first.warnings });
    }
    // Listening everywhere, it is warned of whatever PUBLIC_URL says.
    expect((await start(database, { HOST: '0.0.0.0', PUBLIC_URL: 'http://localhost:3000' })).warnings).toEqual([
      expect.stringMatching(
        /exists on this server, and it listens on 0\.0\.0\.0, which other machines may reach: anyone/,
      ),
    ]);
    const { id } = await database.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', DEMO_LOGIN.email)
      .executeTakeFirstOrThrow();
    await database.db.transaction().execute((trx) => deleteAccount(trx, database.dialect, id));
    expect(
      await start(database, { HOST: '127.0.0.1', PUBLIC_URL: 'https://pollscope.example', SEED_DEMO: '1' }),
    ).toMatchObject({ seeded: false, warnings: [] });
  });

  it('is what the server does when it starts: nothing seeded for a PUBLIC_URL elsewhere without SEED_DEMO', async () => {
    const testDatabase = await createTestDatabase();
    const server = await startServer(testDatabase.url, {
      SEED_DEMO: '',
      PUBLIC_URL: 'https://pollscope.example',
      LOG_LEVEL: 'info',
    });
    try {
      const login = await fetch(`${server.baseUrl}${api.login}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(DEMO_LOGIN),
      });
      expect(login.status).toBe(400);
      expect(server.output()).toContain(
        'demo community not seeded: PUBLIC_URL https://pollscope.example is not this machine',
      );
    } finally {
      await server.stop();
      await testDatabase.drop();
    }
  });

  it('is what the server does when it starts: nothing seeded listening on 0.0.0.0 without SEED_DEMO or PUBLIC_URL', async () => {
    const testDatabase = await createTestDatabase();
    const server = await startServer(testDatabase.url, { SEED_DEMO: '', HOST: '0.0.0.0', LOG_LEVEL: 'info' });
    try {
      const login = await fetch(`${server.baseUrl}${api.login}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(DEMO_LOGIN),
      });
      expect(login.status).toBe(400);
      expect(server.output()).toContain(
        'demo community not seeded: it listens on 0.0.0.0, which other machines may reach',
      );
    } finally {
      await server.stop();
      await testDatabase.drop();
    }
  });
});
