/**
 * `npm test` of the server: the whole suite on SQLite, with the tests of server processes on
 * databases of their own (the fault tests start a PostgreSQL cluster and a Redis of their own),
 * and again on PostgreSQL with the tests of several instances over Redis. PostgreSQL is
 * TEST_DATABASE_URL, else a server on 127.0.0.1:5432 (user postgres or root, no password); Redis is
 * TEST_REDIS_URL, else 127.0.0.1:6379. Without them those tests are skipped, and said so; that fails
 * instead under CI=true, or when the missing one was named in TEST_DATABASE_URL or TEST_REDIS_URL.
 *
 * The two passes run side by side (their tests mostly wait: for a mail window, a server starting, a
 * worker's round), the SQLite one printed as it goes and the PostgreSQL one as each of its steps
 * ends. Each pass runs its timed tests, one file at a time, once its other tests are done: the
 * SQLite pass's beside the end of the PostgreSQL pass's, which take longer. Then the servers under
 * load, alone on the machine (vitest.config.ts says why).
 * Arguments go to Vitest: `npm test -w apps/server -- src/modules/live`.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { Redis } from 'ioredis';
import pg from 'pg';
import { postgresBinDir } from '../src/test/postgres.js';

const inCi = process.env.CI === 'true' || process.env.CI === '1';
const vitestArgs = process.argv.slice(2);
const vitest = path.join(path.dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

type Found = { url: string } | { missing: string };

/** Whether a PostgreSQL user may create the test databases there. */
async function tryPostgres(url: string): Promise<Found> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query<{ allowed: boolean }>(
      'select rolcreatedb or rolsuper as allowed from pg_roles where rolname = current_user',
    );
    return rows[0]?.allowed ? { url } : { missing: `${safe(url)} may not create databases` };
  } catch (error) {
    return { missing: `cannot connect to ${safe(url)} (${(error as Error).message})` };
  } finally {
    await client.end().catch(() => {});
  }
}

async function findPostgres(): Promise<Found> {
  if (process.env.TEST_DATABASE_URL) return tryPostgres(process.env.TEST_DATABASE_URL);
  let found: Found = { missing: 'no server' };
  for (const user of ['postgres', 'root']) {
    found = await tryPostgres(`postgres://${user}@127.0.0.1:5432/postgres`);
    if ('url' in found) return found;
  }
  return {
    missing: `TEST_DATABASE_URL is not set, and neither user postgres nor root can create databases on 127.0.0.1:5432: last, ${found.missing}`,
  };
}

async function findRedis(): Promise<Found> {
  const url = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 3000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => {});
  try {
    await redis.connect();
    await redis.ping();
    return { url };
  } catch (error) {
    return { missing: `cannot reach Redis at ${safe(url)} (${(error as Error).message})` };
  } finally {
    redis.disconnect();
  }
}

/** A URL without its password, for printing. */
function safe(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

/** A pass over one database; `ownServers`: whether it runs the tests of servers on databases of their own. */
type Pass = { name: string; env: NodeJS.ProcessEnv; ownServers: boolean };
type Outcome = { title: string; passed: boolean; seconds: number };

/**
 * Vitest's projects (vitest.config.ts), in order: those that share the cores, the timed tests (one file at a time,
 * once the pass's others are done), and the servers under load, alone on the machine.
 */
const PHASES = {
  shared: { title: 'tests', projects: ['server', 'mocks'] },
  timed: { title: 'timed tests', projects: ['timed'] },
  alone: { title: 'servers under load', projects: ['alone'] },
} as const;
type Phase = keyof typeof PHASES;

/**
 * Runs one phase of one pass. Printed as it goes, or kept and printed whole once it ends, so that
 * two passes at once do not mix their lines. Resolves to whether it passed and how long it took.
 */
function runPhase(pass: Pass, phase: Phase, printAsItGoes: boolean): Promise<Outcome> {
  const { title: what, projects } = PHASES[phase];
  const title = `${pass.name}, ${what}`;
  // A filter that names only tests of the other pass or phase must not fail this one.
  const args = [
    vitest,
    'run',
    ...projects.flatMap((project) => ['--project', project]),
    ...(vitestArgs.length > 0 ? ['--passWithNoTests'] : []),
    ...vitestArgs,
  ];
  const started = performance.now();
  if (printAsItGoes) console.log(`\n=== ${title} ===`);
  // Piped either way, to keep the failures for the recap; colours as a terminal would show them.
  const env = process.stdout.isTTY ? { FORCE_COLOR: '1', ...pass.env } : pass.env;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
    const kept: Buffer[] = [];
    const keep = (chunk: Buffer) => {
      kept.push(chunk);
      if (printAsItGoes) process.stdout.write(chunk);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.once('close', (code) => {
      const output = Buffer.concat(kept).toString();
      if (!printAsItGoes) process.stdout.write(`\n=== ${title} (ran beside the other pass) ===\n${output}`);
      const passed = code === 0;
      if (!passed) failures.push(`=== ${title}: what failed ===\n${failuresIn(output)}`);
      resolve({ title, passed, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/**
 * Vitest's account of what failed, from its first failure heading to its totals: printed again at the end, where a
 * log cut to its last lines still shows it.
 */
function failuresIn(output: string): string {
  const lines = output.split('\n');
  const plain = lines.map((line) => stripVTControlCharacters(line));
  const first = plain.findIndex((line) => /⎯ (Failed|Unhandled)/.test(line));
  const totals = plain.findIndex((line, index) => index > first && /^\s*Test Files\s/.test(line));
  if (first < 0) return plain.filter((line) => /\bFAIL\b|Error/.test(line)).join('\n') || '(no failure printed)';
  const recap = lines.slice(first, totals < 0 ? undefined : totals);
  return recap.length > 200
    ? [...recap.slice(0, 200), `… and ${recap.length - 200} lines more, in the log above`].join('\n')
    : recap.join('\n');
}

const summary: string[] = [];
const failures: string[] = [];
let failed = false;
function report(line: string, failure: boolean): void {
  summary.push(line);
  failed ||= failure;
}

function notRun(what: string, why: string, required: boolean): void {
  report(`${required ? 'FAILED' : 'SKIPPED'} ${what}: ${why}`, required);
}

/** What the fault tests (src/faults.test.ts) need to start, stop and fill servers of their own, or why they cannot. */
function faultTestsMissing(): string | null {
  const missing = [
    ...(postgresBinDir() ? [] : ['PostgreSQL’s initdb and pg_ctl']),
    ...(spawnSync('redis-server', ['--version']).status === 0 ? [] : ['redis-server']),
    ...(process.getuid?.() === 0 ? [] : ['root, to mount a small file system']),
  ];
  return missing.length > 0 ? `they need ${missing.join(', ')}` : null;
}

const { TEST_DATABASE_URL: _database, TEST_REDIS_URL: _redis, ...baseEnv } = process.env;
const redis = await findRedis();
if ('missing' in redis) notRun('tests that need Redis', redis.missing, inCi || Boolean(process.env.TEST_REDIS_URL));
const redisEnv = 'url' in redis ? { TEST_REDIS_URL: redis.url } : {};
const faultsMissing = faultTestsMissing();
if (faultsMissing) notRun('fault tests (PostgreSQL and Redis stopped, a disk full)', faultsMissing, inCi);

const passes: Pass[] = [
  {
    name: 'SQLite pass, with the tests of servers on databases of their own',
    env: { ...baseEnv, ...redisEnv, ...(faultsMissing ? { TEST_FAULTS: 'off' } : {}) },
    ownServers: true,
  },
];
const postgres = await findPostgres();
if ('url' in postgres) {
  passes.push({
    name: `PostgreSQL pass on ${safe(postgres.url)}${'url' in redis ? ` with Redis at ${safe(redis.url)}` : ''}`,
    env: { ...baseEnv, ...redisEnv, TEST_DATABASE_URL: postgres.url },
    ownServers: false,
  });
} else {
  notRun('PostgreSQL pass', postgres.missing, inCi || Boolean(process.env.TEST_DATABASE_URL));
}

/** Each pass's tests, then its timed tests, in a chain of its own; every phase runs whether or not one before failed. */
async function runPass(pass: Pass, printAsItGoes: boolean): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const phase of ['shared', 'timed'] as const) outcomes.push(await runPhase(pass, phase, printAsItGoes));
  return outcomes;
}

const outcomes = (await Promise.all(passes.map((pass, index) => runPass(pass, index === 0)))).flat();
for (const pass of passes.filter(({ ownServers }) => ownServers)) outcomes.push(await runPhase(pass, 'alone', true));
for (const outcome of outcomes)
  report(
    `${outcome.title}: ${outcome.passed ? 'passed' : 'FAILED'} in ${Math.round(outcome.seconds)} s`,
    !outcome.passed,
  );

if (failures.length > 0) console.log(`\n${failures.join('\n\n')}`);
console.log(`\n${summary.join('\n')}`);
process.exit(failed ? 1 : 0);
