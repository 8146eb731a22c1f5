import { randomBytes } from 'node:crypto';
import pg from 'pg';

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
  await onServer(serverUrl, (client) => client.query(`create database "${name}"${template ? ` template "${template}"` : ''}`));
  return name;
}

/** Drops a database made by createPostgresDatabase, ending any connection still open to it. */
export async function dropPostgresDatabase(serverUrl: string, name: string): Promise<void> {
  if (!/^pollscope_(test|template)_[0-9a-f]+$/.test(name)) throw new Error(`Refusing to drop ${name}: not a test database`);
  await onServer(serverUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
}
