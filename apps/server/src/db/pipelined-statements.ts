import pg from 'pg';
import { PreparingClient } from './prepared-statements.js';

/** What starts a transaction, as Kysely asks for it. */
const BEGIN = /^\s*(begin|start transaction)\b/i;
const ROLLBACK = /^\s*rollback\b/i;

/** Put before a statement's text by `writeWithoutWaiting` (dialect.ts): its answer is not waited for. */
export const NOT_WAITED_FOR = '/* not waited for */ ';

/** Put before a statement's text by `readLater` (dialect.ts): not waited for, its rows read once they come. */
export const ANSWERED_LATER = '/* answered later */ ';

/** The answer a statement not waited for is given at once: no rows, and nothing reads more of it. */
const NOT_YET: pg.QueryResult = { command: '', rowCount: null, oid: 0, rows: [], fields: [] };

/**
 * The rows to come of a statement answered later, by the empty rows it was answered with at once:
 * the database library hands those on as they are, and waits for one statement at a time.
 */
const rowsToCome = new WeakMap<unknown[], Promise<unknown[]>>();

/** The rows a statement sent ANSWERED_LATER will have, given the rows it was answered with at once. */
export function rowsLater(rows: unknown[]): Promise<unknown[]> | undefined {
  return rowsToCome.get(rows);
}

type Query = (...args: unknown[]) => unknown;

/**
 * A connection (which prepares statements, PreparingClient) that does not wait for the answers of
 * a transaction's `begin` and of the statements marked NOT_WAITED_FOR: it sends them and the
 * statement after them at once, in PostgreSQL's pipeline mode, where a connection may send a query
 * before the one ahead has been answered. A batch of votes was seven round trips, each costing more
 * in the two processes waking each other than in the statement's work (docs/performance.md).
 *
 * A statement not waited for is answered at once (one answered later with rows to come, read with
 * `rowsLater`); the next statement waits for its own answer and theirs, and fails with the first
 * of their errors, if any: the transaction is then aborted, and
 * nothing after the failed statement is kept. A rollback ends the transaction whatever they
 * answered.
 */
export class PipeliningClient extends PreparingClient {
  /** The answers of statements sent and not waited for: each resolves to its error, or null. */
  private notWaitedFor: Promise<unknown>[] = [];

  constructor(config?: pg.ClientConfig) {
    super({ ...config, pipeline: true });
    const query = this.query.bind(this) as Query;
    this.query = ((...args: unknown[]) => {
      // Callbacks and query objects (pg's own uses) go as they come.
      const [text, ...rest] = args;
      if (typeof text !== 'string' || args.some((arg) => typeof arg === 'function')) return query(...args);
      const later = text.startsWith(ANSWERED_LATER);
      if (BEGIN.test(text) || later || text.startsWith(NOT_WAITED_FOR)) {
        const marker = [ANSWERED_LATER, NOT_WAITED_FOR].find((prefix) => text.startsWith(prefix)) ?? '';
        const statement = text.slice(marker.length);
        const sent = query(statement, ...rest) as Promise<pg.QueryResult>;
        this.notWaitedFor.push(
          sent.then(
            () => null,
            (error: unknown) => error,
          ),
        );
        if (!later) return Promise.resolve(NOT_YET);
        const rows: unknown[] = [];
        const answered = sent.then((result) => result.rows as unknown[]);
        // Its failure is the next statement's to report; whoever reads the rows hears of it too.
        answered.catch(() => {});
        rowsToCome.set(rows, answered);
        return Promise.resolve({ ...NOT_YET, rows });
      }
      if (this.notWaitedFor.length === 0) return query(...args);
      const ahead = this.notWaitedFor;
      this.notWaitedFor = [];
      const answered = query(...args) as Promise<unknown>;
      return Promise.all(ahead).then((errors) => {
        const failed = errors.find((error) => error !== null);
        if (failed === undefined || ROLLBACK.test(text)) return answered;
        answered.catch(() => {});
        throw failed;
      });
    }) as typeof this.query;
  }
}
