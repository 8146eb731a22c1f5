import { sql } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { isPostgresUrl } from '../src/config.js';
import { openDatabase, type Db } from '../src/db/index.js';

/** The table that marks a database as the benchmark's, with the community it holds. */
const MARKER_TABLE = 'bench_community';

/** Creates the PostgreSQL database the URL names when it is missing; no other database is touched. */
async function ensurePostgresDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.slice(1));
  if (!/^\w+$/.test(name))
    throw new Error(`Name the benchmark's PostgreSQL database with letters, digits and _ only, not "${name}"`);
  const server = new URL(url);
  server.pathname = '/postgres';
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    const { rowCount } = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (rowCount === 0) await client.query(`create database "${name}"`);
  } finally {
    await client.end();
  }
}

async function tableNames(db: Db): Promise<string[]> {
  return (await db.introspection.getTables({ withInternalKyselyTables: true })).map((table) => table.name);
}

function refuseForeign(url: string, tables: string[]): void {
  if (tables.length > 0 && !tables.includes(MARKER_TABLE)) {
    throw new Error(
      `${url} holds tables the benchmark did not make (${tables.slice(0, 5).join(', ')}…): give the benchmark a database of its own`,
    );
  }
}

/**
 * Leaves an empty database at `url` for a new community: creates it when missing, and empties
 * one the benchmark made before. A database with other tables is refused, never cleared.
 */
export async function prepareEmptyDatabase(url: string): Promise<void> {
  if (isPostgresUrl(url)) {
    await ensurePostgresDatabase(url);
    const database = openDatabase(url, { poolSize: 1 });
    try {
      const tables = await tableNames(database.db);
      refuseForeign(url, tables);
      if (tables.length > 0)
        await sql`drop table if exists ${sql.join(tables.map((table) => sql.table(table)))} cascade`.execute(
          database.db,
        );
    } finally {
      await database.close();
    }
    return;
  }
  if (!fs.existsSync(url)) {
    fs.mkdirSync(path.dirname(path.resolve(url)), { recursive: true });
    return;
  }
  const database = openDatabase(url);
  try {
    refuseForeign(url, await tableNames(database.db));
  } finally {
    await database.close();
  }
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(url + suffix, { force: true });
}

/** What the marker holds: the community's key and its description, as JSON. */
export async function readMarker(url: string): Promise<{ key: string; description: string } | null> {
  if (!isPostgresUrl(url) && !fs.existsSync(url)) return null;
  if (isPostgresUrl(url)) await ensurePostgresDatabase(url);
  const database = openDatabase(url, { poolSize: 1 });
  try {
    if (!(await tableNames(database.db)).includes(MARKER_TABLE)) return null;
    const { rows } = await sql<{
      key: string;
      description: string;
    }>`select key, description from ${sql.table(MARKER_TABLE)}`.execute(database.db);
    return rows[0] ?? null;
  } finally {
    await database.close();
  }
}

export async function writeMarker(db: Db, key: string, description: string): Promise<void> {
  await sql`create table ${sql.table(MARKER_TABLE)} (key text not null, description text not null)`.execute(db);
  await sql`insert into ${sql.table(MARKER_TABLE)} (key, description) values (${key}, ${description})`.execute(db);
}
