import type { Compilable, RawBuilder, SqlBool } from 'kysely';
import { TurnBatch } from '../lib/turn-batch.js';
import { QueryCompiledOnce } from './compiled-query.js';
import { dialectOf, isOneOf, listParameter, type KeyType } from './dialect.js';
import type { Db } from './index.js';

/** The condition a lookup's statement is built with: its key column is one of the keys asked for. */
export type KeyIsOneOf = (column: string) => RawBuilder<SqlBool>;

/**
 * Rows by key, read many per statement: the keys asked for during one turn of the event loop, on
 * one database handle, go together as one parameter of a statement compiled once (and prepared
 * once per PostgreSQL connection). What concurrent requests miss of what is kept (sessions, states,
 * cards, lists) then costs a round trip per turn rather than one or more per request: where a
 * socket write is dear, those writes were most of a cold request's time (docs/performance.md).
 */
export class Lookup<Key extends string | number, Row> {
  /** Made at the first read, which tells the keys' type; compiled once per dialect read on. */
  private query?: QueryCompiledOnce<[unknown], Row>;
  private readonly batches = new WeakMap<Db, TurnBatch<Key, Row[]>>();

  /**
   * `build` makes the statement from the condition on its key column; `keyOf` names each row's key.
   * A key may have several rows (an author's questions): `load` gives them all, none for a key without.
   */
  constructor(
    private readonly build: (db: Db, keyIsOneOf: KeyIsOneOf) => Compilable<Row>,
    private readonly keyOf: (row: Row) => Key,
  ) {}

  /** The rows of `key`, read on `db` (the primary, a replica, or a transaction) with the keys asked for beside it. */
  load(db: Db, key: Key): Promise<Row[]> {
    let batch = this.batches.get(db);
    if (!batch) {
      batch = new TurnBatch(
        (keys) => this.readAll(db, keys),
        // Every key asked for has its list of rows, empty for none.
        (missing) => new Error(`no rows for ${missing}`),
      );
      this.batches.set(db, batch);
    }
    return batch.load(key);
  }

  /** The one row of `key`, or undefined: for keys that name a row. */
  async loadOne(db: Db, key: Key): Promise<Row | undefined> {
    return (await this.load(db, key))[0];
  }

  private async readAll(db: Db, keys: Key[]): Promise<Map<Key, Row[]>> {
    const type: KeyType = typeof keys[0] === 'number' ? 'integer' : 'text';
    this.query ??= new QueryCompiledOnce(['keys'] as [unknown], (db, list) =>
      this.build(db, (column) => isOneOf(dialectOf(db), column, list, type)),
    );
    const byKey = new Map<Key, Row[]>(keys.map((asked) => [asked, []]));
    for (const row of await this.query.run(db, listParameter(dialectOf(db), keys)))
      byKey.get(this.keyOf(row))?.push(row);
    return byKey;
  }
}
