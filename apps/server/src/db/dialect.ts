import {
  PostgresAdapter,
  type AliasedRawBuilder,
  type CompiledQuery,
  sql,
  type Compilable,
  type CreateTableBuilder,
  type Kysely,
  type OperationNodeSource,
  type QueryCreator,
  type RawBuilder,
  type SelectQueryBuilder,
  type SqlBool,
} from 'kysely';
import { ANSWERED_LATER, NOT_WAITED_FOR, rowsLater } from './pipelined-statements.js';
import type { Database } from './schema.js';

/**
 * Everything that differs between the embedded SQLite database and PostgreSQL lives here, but for the full-text index
 * of questions (search-index.ts).
 */
export type DialectName = 'sqlite' | 'postgres';

export function isPostgresUrl(url: string): boolean {
  return url.startsWith('postgres://') || url.startsWith('postgresql://');
}

export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

/** Network errors of a connection to PostgreSQL that was refused, cut or never answered. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/**
 * PostgreSQL's SQLSTATEs for a server that cannot serve now: shutting down or starting
 * (57P01 to 57P03), out of connections (53300), disk or memory (53100, 53200).
 */
const POSTGRES_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', '53100', '53200']);
/** What node-postgres says of a connection it lost or could not get in time; these errors carry no code. */
const POSTGRES_LOST =
  /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/**
 * Whether a query failed because the database cannot be reached or cannot write now (PostgreSQL
 * stopped or restarting, SQLite's disk full or its file locked past the busy timeout), rather than
 * because of the query: the request can succeed later, so it is answered 503.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof AggregateError && error.errors.some(isDatabaseUnavailable)) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    if (UNREACHABLE_CODES.has(code) || POSTGRES_UNAVAILABLE.has(code) || code.startsWith('08')) return true;
    if (code === 'SQLITE_FULL' || code === 'SQLITE_BUSY' || code.startsWith('SQLITE_IOERR')) return true;
  }
  return POSTGRES_LOST.test(error.message);
}

/** An auto-incrementing integer primary key named `id`. */
export function withIdColumn<T extends string>(
  dialect: DialectName,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return dialect === 'postgres'
    ? table.addColumn('id', 'serial', (col) => col.primaryKey())
    : table.addColumn('id', 'integer', (col) => col.primaryKey().autoIncrement());
}

/** Vote choices hold MC keys, ratings and free numbers alike. */
export const choiceColumnType = 'double precision';

/** Any number, the same in every instance: the key of the PostgreSQL advisory lock below. */
const STARTUP_LOCK = 7_400_101;

/**
 * Runs `work` (migrating and seeding) in one instance at a time, so that instances started
 * together on a new PostgreSQL database do not seed it twice: the next one finds it seeded.
 * A SQLite file belongs to one server process.
 */
export async function oneInstanceAtATime<T>(
  db: Kysely<Database>,
  dialect: DialectName,
  work: () => Promise<T>,
): Promise<T> {
  if (dialect !== 'postgres') return work();
  // A transaction's lock, held until the transaction ends: it stays on one server connection
  // also behind PgBouncer's transaction pooling. `work` runs on other connections meanwhile.
  return db.transaction().execute(async (trx) => {
    await trx.selectNoFrom((eb) => eb.fn('pg_advisory_xact_lock', [eb.lit(STARTUP_LOCK)]).as('locked')).execute();
    return work();
  });
}

/**
 * The rows a worker claims: on PostgreSQL locked until its transaction ends, skipping those
 * another instance is claiming, so that no two claim one row. A SQLite file has one writer
 * at a time, so its transaction alone is enough.
 */
export function skippingLockedRows<DB, TB extends keyof DB, O>(
  dialect: DialectName,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? query.forUpdate().skipLocked() : query;
}

/**
 * The rows a transaction is about to change, locked on PostgreSQL until it ends, in the order
 * read: writers that lock rows of one table in one order never wait on each other in a circle.
 * A SQLite file has one writer at a time, so its transaction alone is enough.
 */
export function lockedForUpdate<DB, TB extends keyof DB, O>(
  dialect: DialectName,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return dialect === 'postgres' ? query.forUpdate() : query;
}

/** A write that refers to a row another transaction deleted meanwhile: a question or person gone with their account. */
export function isForeignKeyViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/**
 * A transaction PostgreSQL ended to settle a conflict with another (a deadlock, or a row it
 * relied on changed): run again, it sees the other's work and goes through.
 */
export function isWriteConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '40P01' || code === '40001' || isForeignKeyViolation(error);
}

/**
 * Runs `write` (a whole transaction) again when PostgreSQL ended it to settle a conflict, up to `attempts` times in
 * all.
 */
export async function retryingConflicts<T>(write: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await write();
    } catch (error) {
      if (attempt >= attempts || !isWriteConflict(error)) throw error;
    }
  }
}

/**
 * Runs work that keeps the rows it locks for its whole length, however long: in a transaction on
 * PostgreSQL, so that the locks end with it or with its connection if the process dies; directly
 * on SQLite, where a transaction would hold the one connection, and everyone, for as long.
 */
export function holdingLocks<T>(
  db: Kysely<Database>,
  dialect: DialectName,
  work: (db: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return dialect === 'postgres' ? db.transaction().execute(work) : work(db);
}

/**
 * An aggregate of a subquery's rows as one JSON array: of the value itself for one value, of an
 * array per row for several. Read with `fromJsonArray`. Several lists come back in one statement,
 * one round trip to PostgreSQL instead of one per list.
 */
export function jsonArrayOf(dialect: DialectName, values: RawBuilder<unknown>[]): RawBuilder<unknown> {
  const joined = sql.join(values);
  if (dialect === 'postgres')
    return sql`coalesce(json_agg(${values.length === 1 ? joined : sql`json_build_array(${joined})`}), '[]')`;
  return sql`coalesce(json_group_array(${values.length === 1 ? joined : sql`json_array(${joined})`}), '[]')`;
}

/** The SQL type of the keys of an `isOneOf` list. */
export type KeyType = 'integer' | 'text';

/**
 * `column` is one of a list given as one parameter (`listParameter`): an array on PostgreSQL, JSON on SQLite. The
 * statement's text is the same however long the list, so it is compiled once and prepared once per connection. On
 * PostgreSQL the array is read through a subquery, whose length the planner does not see: its plan is then the same
 * for any list, and a prepared statement keeps it. Compared directly (`= any($1)`), each run was planned again, a plan
 * for the list's own length always looking cheaper than one kept (1.5 to 1.9 ms a run of a session's read, against
 * 0.5 to 0.7 ms with the plan kept).
 */
export function isOneOf(dialect: DialectName, column: string, list: unknown, type: KeyType): RawBuilder<SqlBool> {
  if (dialect === 'postgres')
    return sql<SqlBool>`${sql.ref(column)} = any(array(select unnest(cast(${list} as ${sql.raw(type)}[]))))`;
  return sql<SqlBool>`${sql.ref(column)} in (select value from json_each(${list}))`;
}

/** A column of the rows `rowsFrom` reads, by its type on PostgreSQL. */
export type ColumnType = 'integer' | 'double precision' | 'text';

/**
 * Rows given as one parameter, the JSON text of an array of objects, as a table to select from, in the array's order.
 * A statement that writes them has the same text however many rows there are, so it is compiled once and prepared
 * once per connection, as with isOneOf's lists: a batch of votes was a text of its own for each number of votes and
 * groups, built and compiled by Kysely each time.
 */
export function rowsFrom<Row extends object, Alias extends string>(
  dialect: DialectName,
  json: unknown,
  columns: { readonly [Column in keyof Row & string]: ColumnType },
  alias: Alias,
): AliasedRawBuilder<Row, Alias> {
  const names = Object.keys(columns) as (keyof Row & string)[];
  if (dialect === 'postgres') {
    const definitions = names.map((name) => `${name} ${columns[name]}`).join(', ');
    return sql<Row>`(select * from jsonb_to_recordset(cast(${json} as jsonb)) as given(${sql.raw(definitions)}))`.as(
      alias,
    );
  }
  const values = names.map((name) => `value ->> '${name}' as ${name}`).join(', ');
  return sql<Row>`(select ${sql.raw(values)} from json_each(${json}))`.as(alias);
}

/** The value of an `isOneOf` list's parameter. */
export function listParameter(dialect: DialectName, values: readonly (string | number)[]): unknown {
  return dialect === 'postgres' ? values : JSON.stringify(values);
}

/** A `jsonArrayOf` as read: PostgreSQL's driver parses JSON, SQLite gives its text. */
export function fromJsonArray<T>(value: unknown): T[] {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T[];
}

/** Whether `db` (or a transaction of it) runs on PostgreSQL. */
const onPostgres = (db: Kysely<Database>) => db.getExecutor().adapter instanceof PostgresAdapter;

/** The dialect `db` (or a transaction of it) speaks. */
export function dialectOf(db: Kysely<Database>): DialectName {
  return onPostgres(db) ? 'postgres' : 'sqlite';
}

/** A write (an insert, update or delete) built and not yet run, for `together` and `writeWithoutWaiting`. */
export type Write = OperationNodeSource & { execute(): Promise<unknown> };

/**
 * Writes that need nothing from one another, as one statement for PostgreSQL (WritesCompiledOnce,
 * compiled-query.ts): each a data-modifying part of its WITH (which PostgreSQL runs once and to completion), so that they
 * cost one round trip to the database rather than one each: what a batch of votes waits for most.
 * SQLite, in the process, runs them one after another. No two may change the same row, and none
 * may lock rows that other transactions lock too: PostgreSQL runs the parts in an order it does not
 * promise, so two transactions could lock such rows in opposite orders and wait on each other.
 */
export function together(db: Kysely<Database>, writes: readonly Write[]): Write & Compilable {
  // Each part is named and never read: a list of them has no static type, so each step is cast back.
  const withWrites = writes.reduce(
    (query, write, index) => query.with(`write_${index}`, () => write as never) as unknown as QueryCreator<Database>,
    db as QueryCreator<Database>,
  );
  return withWrites.selectNoFrom(sql<number>`1`.as('written'));
}

/**
 * Runs a write whose answer nothing reads. In a transaction on PostgreSQL, it is sent and the
 * transaction goes on without waiting for it: it travels with the next statement, which fails with
 * its error if it failed (db/pipelined-statements.ts), so writes that need nothing from one another
 * cost one round trip between them, in the order they are asked for. Outside a transaction (whose
 * connection goes back to the pool at once) and on SQLite, it is run and waited for.
 */
export async function writeWithoutWaiting(db: Kysely<Database>, write: Write & Compilable): Promise<void> {
  if (!db.isTransaction || !onPostgres(db)) {
    await write.execute();
    return;
  }
  await runWithoutWaiting(db, write.compile());
}

/** Runs a compiled write as writeWithoutWaiting runs one: not waited for in a transaction on PostgreSQL. */
export async function runWithoutWaiting(db: Kysely<Database>, compiled: CompiledQuery): Promise<void> {
  const notWaited = db.isTransaction && onPostgres(db);
  await db.executeQuery(notWaited ? { ...compiled, sql: `${NOT_WAITED_FOR}${compiled.sql}` } : compiled);
}

/**
 * Runs a query whose rows are read later: in a transaction on PostgreSQL it is sent like a write
 * not waited for (above), and the rows come once it is answered, which the transaction's next
 * statements do not wait for, its commit included. What the caller gets at once is the promise of
 * the rows: it should be read after what is sent with it. Elsewhere, the query is run at once.
 */
export async function readLater<Row>(
  db: Kysely<Database>,
  compiled: CompiledQuery<Row>,
): Promise<{ rows: Promise<Row[]> }> {
  if (!db.isTransaction || !onPostgres(db)) return { rows: Promise.resolve((await db.executeQuery(compiled)).rows) };
  const { rows } = await db.executeQuery<Row>({ ...compiled, sql: `${ANSWERED_LATER}${compiled.sql}` });
  return { rows: (rowsLater(rows) as Promise<Row[]> | undefined) ?? Promise.resolve(rows) };
}
