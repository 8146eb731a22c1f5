import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, type MigrationProvider, type SqliteDialectConfig } from 'kysely';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { isPostgresUrl } from '../config.js';
import type { DialectName } from './dialect.js';
import { migrations } from './migrations/index.js';
import { PipeliningDialect } from './pipelining.js';
import { PreparingClient } from './prepared-statements.js';
import { pollReplicas, type Replicas } from './replicas.js';
import { checkpointInBackground } from './wal-checkpointer.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;

/** PostgreSQL connections of one instance's pool: open, of which idle, and requests waiting for one. */
export interface PoolUse {
  open: number;
  idle: number;
  waiting: number;
  max: number;
}

export interface DatabaseHandle {
  db: Db;
  dialect: DialectName;
  /** The pool's use now; null for SQLite, one connection that queries take turns on. */
  poolUse(): PoolUse | null;
  /**
   * PostgreSQL's streaming replicas that reads which may lag go to (DATABASE_REPLICA_URL), or null: every read goes to
   * `db`.
   */
  replicas: Replicas | null;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** Connections kept open to PostgreSQL at most, to the primary and to each replica. */
  poolSize?: number;
  /** postgres:// URLs of the primary's streaming replicas. */
  replicaUrls?: readonly string[];
  /** A replica lagging more than this (ms) is left out. */
  replicaMaxLagMs?: number;
}

// PostgreSQL returns bigint (count(*), sums) as strings; every count here fits a JS number.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
pg.types.setTypeParser(pg.types.builtins.NUMERIC, (value) => Number(value));

/** How long a request waits for a PostgreSQL connection at most. */
const CONNECT_TIMEOUT_MS = 3_000;

/**
 * A pool of connections to one PostgreSQL server. A connection not had within CONNECT_TIMEOUT_MS
 * fails the request with 503 rather than letting it wait for a database that is away or a pool
 * that cannot keep up.
 */
function openPool(url: string, poolSize: number): { db: Db; pool: pg.Pool } {
  const pool = new pg.Pool({
    Client: PreparingClient,
    // A client that sends a query before the one ahead is answered, for PipeliningDialect's transactions.
    pipeline: true,
    connectionString: url,
    max: poolSize,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    keepAlive: true,
  });
  // An idle connection the server ends (a restart, a failover) is dropped from the pool and
  // replaced on next use; unhandled, its error would stop the process. So would the error of
  // one in use between two queries (a transaction's): its next query fails instead, the
  // request is answered 503, and the pool drops it when it is given back.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  return { db: new Kysely<Database>({ dialect: new PipeliningDialect({ pool }) }), pool };
}

/** A replica's name in the metrics and logs: its host and port, never its password. */
function replicaName(url: string): string {
  const { hostname, port } = new URL(url);
  return `${hostname}:${port || '5432'}`;
}

export function openDatabase(
  url: string,
  { poolSize = 10, replicaUrls = [], replicaMaxLagMs = 2_000 }: DatabaseOptions = {},
): DatabaseHandle {
  if (isPostgresUrl(url)) {
    const { db, pool } = openPool(url, poolSize);
    const replicaDbs = replicaUrls.map((replicaUrl) => {
      const replica = openPool(replicaUrl, poolSize);
      return {
        name: replicaName(replicaUrl),
        db: replica.db,
        onConnectionLost: (listener: () => void) => void replica.pool.on('error', listener),
      };
    });
    const replicas = replicaDbs.length > 0 ? pollReplicas(db, replicaDbs, { maxLagMs: replicaMaxLagMs }) : null;
    const poolUse = () => ({ open: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount, max: poolSize });
    return {
      db,
      dialect: 'postgres',
      poolUse,
      replicas,
      close: async () => {
        await replicas?.close();
        await db.destroy();
      },
    };
  }
  if (replicaUrls.length > 0)
    throw new Error(
      'DATABASE_REPLICA_URL names PostgreSQL replicas, but DATABASE_URL is a SQLite file, which has none',
    );
  if (url !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(url)), { recursive: true });
  const sqlite = new SqliteDatabase(url);
  sqlite.pragma('journal_mode = WAL');
  // In WAL mode NORMAL keeps every committed transaction through a process crash; only a
  // power cut can lose the last ones. SQLITE_SYNCHRONOUS=FULL trades speed for that too.
  sqlite.pragma(`synchronous = ${process.env.SQLITE_SYNCHRONOUS === 'FULL' ? 'FULL' : 'NORMAL'}`);
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // A statement that writes many rows keeps what it would undo in a journal of its own: in
  // memory that costs a copy, on disk a file opened, written and deleted per statement.
  sqlite.pragma('temp_store = MEMORY');
  const stopCheckpoints = url === ':memory:' ? null : checkpointInBackground(sqlite, url);
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  return {
    db,
    dialect: 'sqlite',
    poolUse: () => null,
    replicas: null,
    close: async () => {
      await stopCheckpoints?.();
      await db.destroy();
    },
  };
}

/** What a rollback of a transaction SQLite has already rolled back runs: nothing. */
const ROLLED_BACK = {
  reader: false,
  all: () => [],
  iterate: () => [][Symbol.iterator](),
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
};

/** Statements kept compiled: the app's queries, and the lengths of their `in (…)` lists. */
const STATEMENT_CACHE_SIZE = 1_000;
/**
 * Longer statements are compiled for their one use: those are a batch of votes' many rows,
 * whose number varies with the load, and a compiled statement takes memory as its text grows.
 */
const LONGEST_STATEMENT_KEPT = 2_000;

/**
 * Kysely asks for a statement on every query, and compiling one costs as much as running a
 * small query: the app runs a few hundred distinct statements, so each is compiled once and
 * kept (the oldest dropped past the cache's size: a hit costs one lookup, no reordering). Kysely
 * runs one query at a time on the connection, so a kept statement is never in use twice at once.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDialectConfig['database'] {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      // On some errors (a disk full, an I/O error) SQLite has rolled the transaction back itself:
      // Kysely's rollback then has nothing to undo, and its failure would hide the error that caused it.
      if (sql === 'rollback' && !sqlite.inTransaction) return ROLLED_BACK;
      if (sql.length > LONGEST_STATEMENT_KEPT) return sqlite.prepare(sql);
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => migrations(handle.dialect) };
  const migrator = new Migrator({ db: handle.db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error;
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
