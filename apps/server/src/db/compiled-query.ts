import type { Compilable, CompiledQuery } from 'kysely';
import type { Db } from './index.js';

/**
 * A query built and compiled once, then run with new values. Kysely builds and compiles a query
 * on every call, which costs more than SQLite takes to run a small one: the calls made on every
 * request (the session, the feed's reads) are compiled here once instead. `build` receives
 * placeholders, which must each be bound once, in the order the statement binds them; the run
 * takes the values in that order, on the handle given (a transaction's too).
 */
export function compiledOnce<Values extends readonly unknown[], Row>(
  db: Db,
  placeholders: Values,
  build: (db: Db, ...placeholders: Values) => Compilable<Row>,
): (db: Db, ...values: Values) => Promise<Row[]> {
  const compiled: CompiledQuery<Row> = build(db, ...placeholders).compile();
  const bound = compiled.parameters;
  if (bound.length !== placeholders.length || bound.some((value, index) => value !== placeholders[index])) {
    throw new Error(
      `compiledOnce: the statement binds ${JSON.stringify(bound)}, not the placeholders ${JSON.stringify(placeholders)} in order`,
    );
  }
  return async (handle, ...values) => (await handle.executeQuery<Row>({ ...compiled, parameters: values })).rows;
}
