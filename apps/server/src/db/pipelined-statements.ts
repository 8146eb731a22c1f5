import pg from 'pg';
import { PreparingClient } from './prepared-statements.js';

/** What starts a transaction, as Kysely asks for it. */
const BEGIN = /^\s*(begin|start transaction)\b/i;
const ROLLBACK = /^\s*rollback\b/i;

/** Put before a statement's text by `writeWithoutWaiting` (dialect.ts): its answer is not waited for. */
export const NOT_WAITED_FOR = '/* not waited for */ ';

/** The answer a statement not waited for is given at once: no rows, and nothing reads more of it. */
const NOT_YET: pg.QueryResult = { command: '', rowCount: null, oid: 0, rows: [], fields: [] };

type Query = (...args: unknown[]) => unknown;

/**
 * A connection (which prepares statements, PreparingClient) that does not wait for the answers of
 * a transaction's `begin` and of the statements marked NOT_WAITED_FOR: it sends them and the
 * statement after them at once, in PostgreSQL's pipeline mode, where a connection may send a query
 * before the one ahead has been answered. A batch of votes was seven round trips, each costing more
 * in the two processes waking each other than in the statement's work (docs/performance.md).
 *
 * A statement not waited for is answered at once; the next statement waits for its own answer and
 * theirs, and fails with the first of their errors, if any: the transaction is then aborted, and
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
      if (BEGIN.test(text) || text.startsWith(NOT_WAITED_FOR)) {
        const statement = text.startsWith(NOT_WAITED_FOR) ? text.slice(NOT_WAITED_FOR.length) : text;
        const sent = query(statement, ...rest) as Promise<unknown>;
        this.notWaitedFor.push(
          sent.then(
            () => null,
            (error: unknown) => error,
          ),
        );
        return Promise.resolve(NOT_YET);
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
