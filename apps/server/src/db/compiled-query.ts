import { sql, type Compilable, type CompiledQuery, type OperationNodeSource, type QueryCreator } from 'kysely';
import { dialectOf, type DialectName } from './dialect.js';
import type { Db } from './index.js';
import { sendWithoutWaiting } from './pipelining.js';
import type { Database } from './schema.js';

/** A statement compiled once with placeholders, and where each value it binds is among them. */
interface Template {
  query: CompiledQuery;
  places: number[];
}

/** The template of `compiled`; throws on a value bound that is no placeholder. */
function templateOf(compiled: CompiledQuery, placeholders: readonly unknown[], by: string): Template {
  const places = compiled.parameters.map((value) => {
    const place = placeholders.indexOf(value);
    if (place < 0) throw new Error(`${by}: the statement binds ${JSON.stringify(value)}, which is no placeholder`);
    return place;
  });
  return { query: compiled, places };
}

/** The template's statement with the values, in the placeholders' order, bound where it binds them. */
function withValues<Row>({ query, places }: Template, values: readonly unknown[]): CompiledQuery<Row> {
  return { ...(query as CompiledQuery<Row>), parameters: places.map((place) => values[place]) };
}

/**
 * A query built and compiled once per dialect it runs on, then run with new values. Kysely builds
 * and compiles a query on every call, which costs more than SQLite takes to run a small one: the
 * calls made on every request (the session, the feed's reads, a batch of votes) are compiled here
 * once instead. `build` receives placeholders, distinct values which the statement binds in any
 * order, any number of times, and binds nothing else; a run takes their values in the
 * placeholders' order, on the handle given (a transaction's too).
 */
export class QueryCompiledOnce<Values extends readonly unknown[], Row> {
  private readonly templates = new Map<DialectName, Template>();

  constructor(
    private readonly placeholders: Values,
    private readonly build: (db: Db, ...placeholders: Values) => Compilable<Row>,
  ) {}

  /** The statement with the values bound, for a caller that runs it its own way (sendWithoutWaiting, pipelining.ts). */
  bound(db: Db, ...values: Values): CompiledQuery<Row> {
    const dialect = dialectOf(db);
    let template = this.templates.get(dialect);
    if (template === undefined) {
      template = templateOf(this.build(db, ...this.placeholders).compile(), this.placeholders, 'QueryCompiledOnce');
      this.templates.set(dialect, template);
    }
    return withValues(template, values);
  }

  async run(db: Db, ...values: Values): Promise<Row[]> {
    return (await db.executeQuery(this.bound(db, ...values))).rows;
  }
}

/** A write (an insert, update or delete) built and not yet run, for WritesCompiledOnce. */
export type Write = OperationNodeSource & { execute(): Promise<unknown> };

/**
 * Writes that need nothing from one another, as one statement for PostgreSQL: each a data-modifying
 * part of its WITH (which PostgreSQL runs once and to completion), so that they cost one round trip
 * to the database rather than one each: what a batch of votes waits for most. SQLite, in the
 * process, runs them one after another. No two may change the same row, and none
 * may lock rows that other transactions lock too: PostgreSQL runs the parts in an order it does not
 * promise, so two transactions could lock such rows in opposite orders and wait on each other.
 */
function together(db: Db, writes: readonly Write[]): Write & Compilable {
  // Each part is named and never read: a list of them has no static type, so each step is cast back.
  const withWrites = writes.reduce(
    (query, write, index) => query.with(`write_${index}`, () => write as never) as unknown as QueryCreator<Database>,
    db as QueryCreator<Database>,
  );
  return withWrites.selectNoFrom(sql<number>`1`.as('written'));
}

/**
 * Writes built and compiled once, then run with new values: as one statement (`together`) not
 * waited for on PostgreSQL, one after another on SQLite. For the writes of every batch of votes,
 * whose rows come as parameters (rowsFrom, dialect.ts): Kysely built and compiled them again for
 * each batch, between the batch's two round trips. Each placeholder must be distinct, and each write
 * binds only placeholders.
 */
export class WritesCompiledOnce<Values extends readonly unknown[]> {
  /** Compiled once per dialect written on (a process may hold databases of both). */
  private readonly compiled = new Map<DialectName, Template[]>();

  constructor(
    private readonly placeholders: Values,
    private readonly build: (db: Db, ...placeholders: Values) => Write[],
  ) {}

  async run(db: Db, ...values: Values): Promise<void> {
    for (const template of this.statementsFor(db)) await sendWithoutWaiting(db, withValues(template, values));
  }

  private statementsFor(db: Db): Template[] {
    const dialect = dialectOf(db);
    let statements = this.compiled.get(dialect);
    if (statements === undefined) {
      const writes = this.build(db, ...this.placeholders);
      const compiled =
        dialect === 'postgres' && writes.length > 1 ? [together(db, writes).compile()] : writes.map(compile);
      statements = compiled.map((query) => templateOf(query, this.placeholders, 'WritesCompiledOnce'));
      this.compiled.set(dialect, statements);
    }
    return statements;
  }
}

const compile = (write: Write): CompiledQuery => (write as Write & Compilable).compile();
