import {
  CompiledQuery,
  PostgresDialect,
  PostgresDriver,
  type Compilable,
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type PostgresDialectConfig,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { dialectOf } from './dialect.js';
import type { Database } from './schema.js';

/** A connection of Kysely's PostgreSQL driver, whose class it does not export. */
type PostgresConnection = Parameters<PostgresDriver['releaseConnection']>[0];

/**
 * A transaction's connection to PostgreSQL that can send a statement without waiting for its
 * answer: `send` puts it on the wire at once (node-postgres's pipeline mode lets a connection send
 * a query before the one ahead is answered), and the statements after it, the commit included,
 * follow it without a round trip between them. A batch of votes was seven round trips, each
 * costing more in the two processes waking each other than in the statement's work
 * (docs/performance.md).
 *
 * A statement sent that fails fails the transaction, which PostgreSQL aborts: its error is thrown
 * once, by `awaitSent()` if that is called first, else by the next statement waited for on the
 * connection (the commit at the latest).
 */
export class PipeliningConnection implements DatabaseConnection {
  /** The answers of the statements sent and not yet awaited, each settled to its error, or null. */
  private sent: Promise<unknown>[] = [];

  /** `connection`: on a client in pipeline mode. */
  constructor(readonly connection: PostgresConnection) {}

  /**
   * Sends `compiled` without waiting: the promise of its rows settles once PostgreSQL has answered
   * it. Its error also comes out of the transaction (above), so the promise may be left unread.
   */
  send<Row>(compiled: CompiledQuery<Row>): Promise<Row[]> {
    const rows = this.connection.executeQuery<Row>(compiled).then((result) => result.rows);
    this.sent.push(rows.then(answeredWell, (error: unknown) => error));
    return rows;
  }

  /** Waits for the answers of every statement sent so far, and throws the first one's error if any failed. */
  async awaitSent(): Promise<void> {
    const sent = this.sent;
    if (sent.length === 0) return;
    this.sent = [];
    const failed = (await Promise.all(sent)).find((error) => error !== null);
    if (failed !== undefined) throw failed;
  }

  /** Runs `compiled` and waits for its answer, which comes after those of the statements sent before it. */
  executeQuery<Row>(compiled: CompiledQuery): Promise<QueryResult<Row>> {
    const answered = this.connection.executeQuery<Row>(compiled);
    if (this.sent.length === 0) return answered;
    return this.awaitSent().then(
      () => answered,
      (error: unknown) => {
        // Once a statement ahead failed, this one's own error only says that the transaction is aborted.
        answered.catch(ignore);
        throw error;
      },
    );
  }

  /** Never: node-postgres refuses in pipeline mode the cursors that rows are streamed with. */
  streamQuery<Row>(): AsyncIterableIterator<QueryResult<Row>> {
    throw new Error('A pipelining connection streams no rows: node-postgres has no cursor in pipeline mode');
  }
}

const answeredWell = () => null;
const ignore = () => {};

/** The statement that begins a transaction, worded as Kysely's PostgreSQL driver words it. */
function beginStatement({ isolationLevel, accessMode }: TransactionSettings): CompiledQuery {
  if (!isolationLevel && !accessMode) return CompiledQuery.raw('begin');
  const isolation = isolationLevel ? ` isolation level ${isolationLevel}` : '';
  return CompiledQuery.raw(`start transaction${isolation}${accessMode ? ` ${accessMode}` : ''}`);
}

/**
 * Kysely's PostgreSQL driver with PipeliningConnections: a transaction's begin is sent without
 * waiting, and goes out with the transaction's first statement; its rollback goes whatever the
 * statements sent before it answered.
 */
class PipeliningDriver extends PostgresDriver {
  /** Each connection of the pool wrapped once, as Kysely's driver keeps one connection per pool client. */
  private readonly wrapped = new WeakMap<DatabaseConnection, PipeliningConnection>();

  override async acquireConnection(): Promise<PipeliningConnection> {
    const connection = (await super.acquireConnection()) as PostgresConnection;
    let pipelining = this.wrapped.get(connection);
    if (pipelining === undefined) this.wrapped.set(connection, (pipelining = new PipeliningConnection(connection)));
    return pipelining;
  }

  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    void pipelining(connection).send(beginStatement(settings));
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    // What the statements sent answered no longer matters: the rollback ends the transaction either way.
    pipelining(connection).awaitSent().catch(ignore);
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await super.releaseConnection(pipelining(connection).connection);
  }
}

/** A connection this driver gave out. */
function pipelining(connection: DatabaseConnection): PipeliningConnection {
  if (!(connection instanceof PipeliningConnection)) throw new TypeError('not a connection of PipeliningDriver');
  return connection;
}

/**
 * PostgreSQL through Kysely with its transactions on PipeliningConnections. The pool's clients must
 * be in pipeline mode (`pipeline: true`), or what is sent waits in the client for the answer ahead.
 */
export class PipeliningDialect extends PostgresDialect {
  constructor(private readonly config: PostgresDialectConfig) {
    super(config);
  }

  override createDriver(): Driver {
    return new PipeliningDriver(this.config);
  }
}

/**
 * The connection of `db`'s transaction, to send statements on without waiting for as long as the
 * transaction lasts. Null outside a transaction, whose connection goes back to the pool at once,
 * and on SQLite, which runs statements in the process: no round trip to save.
 */
export async function pipelineOf(db: Kysely<Database>): Promise<PipeliningConnection | null> {
  if (!db.isTransaction || dialectOf(db) !== 'postgres') return null;
  return db
    .getExecutor()
    .provideConnection(async (connection) => (connection instanceof PipeliningConnection ? connection : null));
}

/**
 * Sends `compiled` without waiting in `db`'s transaction on PostgreSQL (PipeliningConnection), and
 * resolves once it is sent to the promise of its rows, to read after what is sent with it. Elsewhere
 * it runs and is waited for, its rows there at once.
 */
export async function sendWithoutWaiting<Row>(
  db: Kysely<Database>,
  compiled: CompiledQuery<Row>,
): Promise<{ rows: Promise<Row[]> }> {
  const pipeline = await pipelineOf(db);
  if (pipeline !== null) return { rows: pipeline.send(compiled) };
  return { rows: Promise.resolve((await db.executeQuery(compiled)).rows) };
}

/**
 * Runs a write whose answer nothing reads, as sendWithoutWaiting runs a statement: writes that
 * need nothing from one another cost one round trip between them, in the order they are asked for.
 */
export async function writeWithoutWaiting(db: Kysely<Database>, write: Compilable): Promise<void> {
  await sendWithoutWaiting(db, write.compile());
}
