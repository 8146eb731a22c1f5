import type { Compilable, CompiledQuery } from 'kysely';
import { dialectOf, runWithoutWaiting, together, type DialectName, type Write } from './dialect.js';
import type { Db } from './index.js';

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

  /** The statement with the values bound, for a caller that runs it its own way (readLater). */
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
    for (const template of this.statementsFor(db)) await runWithoutWaiting(db, withValues(template, values));
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
