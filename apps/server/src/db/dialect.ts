import {
  PostgresAdapter,
  sql,
  type AliasedRawBuilder,
  type CreateTableBuilder,
  type Kysely,
  type RawBuilder,
  type SqlBool,
} from 'kysely';
import type { Database } from './schema.js';

/**
 * What differs between the embedded SQLite database and PostgreSQL in the SQL the app writes, but for the full-text
 * index of questions (search-index.ts). How each fails is told in database-errors.ts, how each locks in locks.ts, and
 * how PostgreSQL's statements travel in pipelining.ts.
 */
export type DialectName = 'sqlite' | 'postgres';

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

/** The dialect `db` (or a transaction of it) speaks. */
export function dialectOf(db: Kysely<Database>): DialectName {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}
