import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freeFixedPort } from './ports.js';
import type { StoppableService } from './server-process.js';

const execFileAsync = promisify(execFile);

/**
 * The PostgreSQL server the tests run on (`TEST_DATABASE_URL`, e.g.
 * postgres://postgres@127.0.0.1:5432/postgres), or null to run them on SQLite. The database the
 * URL names is only used to connect: every test file gets a database of its own beside it.
 */
export const testPostgresUrl: string | null = process.env.TEST_DATABASE_URL || null;

/** The URL of another database on the same server. */
export function databaseUrlFor(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function onServer<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates a database named `<prefix>_<random>`, a copy of `template` when given (copying a
 * migrated and seeded database is much faster than migrating and seeding each one), and
 * returns its name. Only names made here are ever created or dropped.
 */
export async function createPostgresDatabase(serverUrl: string, prefix: string, template?: string): Promise<string> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(serverUrl, (client) =>
    client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`),
  );
  return name;
}

/** Drops a database made by createPostgresDatabase, ending any connection still open to it. */
export async function dropPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  if (!/^pollscope_(test|template)_[0-9a-f]+$/.test(name))
    throw new Error(`Refusing to drop ${name}: not a test database`);
  await onServer(serverUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
}

/** The directory of PostgreSQL's server programs (initdb, pg_ctl) on this machine, or null when none is installed. */
export function postgresBinDir(): string | null {
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (fs.existsSync(path.join(dir, 'initdb'))) return dir;
  } catch {
    // No pg_config: look where Debian installs the server.
  }
  const root = '/usr/lib/postgresql';
  const versions = fs.existsSync(root)
    ? fs.readdirSync(root).filter((version) => fs.existsSync(path.join(root, version, 'bin', 'initdb')))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest ? path.join(root, newest, 'bin') : null;
}

/**
 * A PostgreSQL server of a test's own: its `url` is postgres://postgres@127.0.0.1:<port>/postgres, and it stops as an
 * operator would (fast shutdown: sessions ended, all written).
 */
export type PostgresCluster = StoppableService;

/** A directory of the cluster's own, owned by `postgres` when run as root, and how its programs are run there. */
function clusterPlace(): { dir: string; run: (program: string, args: string[]) => Promise<unknown> } {
  const bin = postgresBinDir();
  if (!bin)
    throw new Error('PostgreSQL’s server programs (initdb, pg_ctl) are not installed: apt-get install postgresql');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-postgres-'));
  // PostgreSQL refuses to run as root.
  const asRoot = process.getuid?.() === 0;
  if (asRoot)
    fs.chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })),
      Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })),
    );
  const run = (program: string, args: string[]) =>
    asRoot
      ? execFileAsync('runuser', ['-u', 'postgres', '--', path.join(bin, program), ...args])
      : execFileAsync(path.join(bin, program), args);
  return { dir, run };
}

/**
 * Starts the cluster whose data `place` holds on `port` of 127.0.0.1, without fsync, as nothing here survives the
 * machine; every commit still waits for its WAL write.
 */
async function startClusterIn({ dir, run }: ReturnType<typeof clusterPlace>, port: number): Promise<PostgresCluster> {
  const data = path.join(dir, 'data');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=60 -c shared_buffers=16MB`;
  let running = false;
  const log = path.join(dir, 'log');
  const start = async () => {
    if (running) return;
    await run('pg_ctl', ['-D', data, '-o', options, '-l', log, '-w', '-t', '30', 'start']).catch((error: Error) => {
      throw new Error(`${error.message}\nPostgreSQL's log:\n${fs.readFileSync(log, 'utf8').slice(-4000)}`);
    });
    running = true;
  };
  const stop = async () => {
    await run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
    running = false;
  };
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async destroy() {
      if (running) await stop().catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Makes a new PostgreSQL cluster in a temporary directory and starts it on a free port of
 * 127.0.0.1, as the user `postgres` when run as root.
 */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  const port = await freeFixedPort();
  const place = clusterPlace();
  await place.run('initdb', [
    '-D',
    path.join(place.dir, 'data'),
    '-U',
    'postgres',
    '--auth=trust',
    '--no-sync',
    '--encoding=UTF8',
    '--locale=C',
  ]);
  return startClusterIn(place, port);
}

/**
 * A streaming replica of `primary` (a cluster of startPostgresCluster, whose `trust` covers
 * replication from 127.0.0.1), copied by `pg_basebackup -R` and started on a free port: it
 * replays the primary's log as it is written, and answers reads only.
 */
export async function startStreamingReplica(primary: PostgresCluster): Promise<PostgresCluster> {
  const port = await freeFixedPort();
  const place = clusterPlace();
  const from = new URL(primary.url);
  const source = ['-h', from.hostname, '-p', from.port, '-U', 'postgres'];
  // A fast checkpoint: the copy starts at once rather than after the primary's spread one, half a minute later.
  await place.run('pg_basebackup', [
    '-D',
    path.join(place.dir, 'data'),
    ...source,
    '-R',
    '-X',
    'stream',
    '--checkpoint=fast',
    '--no-sync',
  ]);
  return startClusterIn(place, port);
}
