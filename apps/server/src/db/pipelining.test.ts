import { CompiledQuery, Kysely, type Driver } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { PipeliningConnection, PipeliningDialect, pipelineOf, sendWithoutWaiting } from './pipelining.js';
import { PreparingClient } from './prepared-statements.js';
import type { Database } from './schema.js';
import { testPostgresUrl } from '../test/postgres.js';

// Run on the PostgreSQL pass of `npm test`: SQLite has no connection to send statements on.
describe.runIf(testPostgresUrl)('statements sent without waiting for their answer', () => {
  const table = `pipelined_${process.pid}`;
  let pool: pg.Pool;
  let driver: Driver;
  let connection: PipeliningConnection;
  /** Another connection, which holds locks the connection's statements wait for. */
  let other: pg.Client;
  let connectionPid: number;
  beforeAll(async () => {
    pool = new pg.Pool({ Client: PreparingClient, pipeline: true, connectionString: testPostgresUrl!, max: 1 });
    driver = new PipeliningDialect({ pool }).createDriver();
    await driver.init();
    const acquired = await driver.acquireConnection();
    if (!(acquired instanceof PipeliningConnection)) throw new Error('the driver gives out PipeliningConnections');
    connection = acquired;
    other = new pg.Client({ connectionString: testPostgresUrl! });
    await other.connect();
    await other.query(`create table ${table} (value int primary key)`);
    connectionPid = (await query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
  });
  afterAll(async () => {
    await other?.query(`drop table if exists ${table}`);
    if (connection) await driver.releaseConnection(connection);
    await Promise.all([driver?.destroy(), other?.end()]);
  });

  /** A statement run on the connection and waited for. */
  const query = <Row>(text: string, parameters: unknown[] = []) =>
    connection.executeQuery<Row>(CompiledQuery.raw(text, parameters));
  const send = <Row>(text: string, parameters: unknown[] = []) =>
    connection.send<Row>(CompiledQuery.raw(text, parameters));
  const begin = () => driver.beginTransaction(connection, {});
  const commit = () => driver.commitTransaction(connection);
  const rollback = () => driver.rollbackTransaction(connection);
  const kept = async () =>
    (await query<{ value: number }>(`select value from ${table} order by value`)).rows.map((row) => row.value);
  const insert = `insert into ${table} (value) values ($1)`;
  /** Seen from the other connection: the connection's statement waits for a lock the other holds. */
  const connectionWaitsForLock = () =>
    vi.waitFor(async () => {
      const waiting = await other.query(`select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`, [
        connectionPid,
      ]);
      expect(waiting.rowCount).toBe(1);
    });

  it('runs them in order inside the transaction, which commits or rolls back whole', async () => {
    await begin();
    void send(insert, [1]);
    expect(await kept()).toEqual([1]);
    await rollback();
    await begin();
    void send(insert, [2]);
    await commit();
    expect(await kept()).toEqual([2]);
  });

  it('sends one at once while PostgreSQL still runs it, and answers the next statement once it has run', async () => {
    await other.query('begin');
    await other.query(`update ${table} set value = 3 where value = 2`);
    await begin();
    // Waits for the other connection's lock on the row; the select is sent behind it all the same.
    const updated = send(`update ${table} set value = value + 10 where value = 2`);
    const next = query<{ value: number }>(`select value from ${table}`);
    // Seen from the other connection: the update waits for its lock, and the select behind it with it.
    await connectionWaitsForLock();
    await other.query('commit');
    // The update found no row of 2 once the other had committed 3.
    expect((await next).rows).toEqual([{ value: 3 }]);
    expect(await updated).toEqual([]);
    await commit();
  });

  it('fails the next statement with the error of one that failed, and keeps nothing of the transaction', async () => {
    await begin();
    void send(insert, [4]);
    void send(insert, [3]);
    await expect(query(`select count(*) from ${table}`)).rejects.toThrow(/duplicate key/);
    await rollback();
    expect(await kept()).toEqual([3]);
  });

  it('fails awaitSent with the error of one that failed, once: the rollback goes all the same', async () => {
    await begin();
    void send(insert, [4]);
    void send(insert, [3]);
    await expect(connection.awaitSent()).rejects.toThrow(/duplicate key/);
    await expect(connection.awaitSent()).resolves.toBeUndefined();
    await rollback();
    expect(await kept()).toEqual([3]);
  });

  it('fails the statement after a begin that failed, with the begin’s error', async () => {
    await begin();
    await expect(query('select 1 / 0')).rejects.toThrow(/division by zero/);
    // Begun again inside the aborted transaction: refused, and so is the insert behind it.
    await begin();
    await expect(query(insert, [5])).rejects.toThrow(/current transaction is aborted/);
    await rollback();
    expect(await kept()).toEqual([3]);
  });

  it('gives the rows of one sent at once, as they come with the answer of the statement after it', async () => {
    await other.query('begin');
    await other.query(`update ${table} set value = 6 where value = 3`);
    await begin();
    const rows = send<{ value: number }>(`update ${table} set value = value + 10 returning value`);
    // Sent at once behind it, while the update still waits for the other connection's lock on the row.
    const committed = commit();
    let read: unknown;
    void rows.then((value) => (read = value));
    await connectionWaitsForLock();
    expect(read).toBeUndefined();
    await other.query('commit');
    await committed;
    expect(await rows).toEqual([{ value: 16 }]);
    expect(await kept()).toEqual([16]);
  });

  it('fails the commit behind one sent that failed, and its rows with it', async () => {
    await begin();
    const rows = send(`insert into ${table} (value) values (16) returning value`);
    await expect(commit()).rejects.toThrow(/duplicate key/);
    await expect(rows).rejects.toThrow(/duplicate key/);
    expect(await kept()).toEqual([16]);
  });
});

describe.runIf(testPostgresUrl)('a transaction’s statements sent without waiting, through Kysely', () => {
  let pool: pg.Pool;
  let db: Kysely<Database>;
  beforeAll(() => {
    pool = new pg.Pool({ Client: PreparingClient, pipeline: true, connectionString: testPostgresUrl!, max: 1 });
    db = new Kysely<Database>({ dialect: new PipeliningDialect({ pool }) });
  });
  afterAll(() => db?.destroy());

  it('reaches the transaction’s connection, and none outside a transaction', async () => {
    expect(await pipelineOf(db)).toBeNull();
    await db.transaction().execute(async (trx) => {
      expect(await pipelineOf(trx)).toBeInstanceOf(PipeliningConnection);
    });
  });

  it('gives the rows of one sent in a transaction, to read after it', async () => {
    const { rows } = await db
      .transaction()
      .execute((trx) => sendWithoutWaiting(trx, CompiledQuery.raw('select 1 as one', [])));
    expect(await rows).toEqual([{ one: 1 }]);
  });
});
