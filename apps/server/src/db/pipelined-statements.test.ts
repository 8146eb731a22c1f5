import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ANSWERED_LATER, NOT_WAITED_FOR, PipeliningClient, rowsLater } from './pipelined-statements.js';
import { testPostgresUrl } from '../test/postgres.js';

// Run on the PostgreSQL pass of `npm test`: SQLite has no connection to send statements on.
describe.runIf(testPostgresUrl)('statements sent without waiting for their answer', () => {
  const table = `pipelined_${process.pid}`;
  let client: PipeliningClient;
  /** Another connection, which holds locks the client's statements wait for. */
  let other: pg.Client;
  let clientPid: number;
  beforeAll(async () => {
    client = new PipeliningClient({ connectionString: testPostgresUrl! });
    other = new pg.Client({ connectionString: testPostgresUrl! });
    await Promise.all([client.connect(), other.connect()]);
    await other.query(`create table ${table} (value int primary key)`);
    clientPid = (await client.query<{ pid: number }>('select pg_backend_pid() as pid', [])).rows[0].pid;
  });
  afterAll(async () => {
    await other?.query(`drop table if exists ${table}`);
    await Promise.all([client?.end(), other?.end()]);
  });

  const kept = async () =>
    (await client.query<{ value: number }>(`select value from ${table} order by value`, [])).rows.map(
      (row) => row.value,
    );
  const insert = `insert into ${table} (value) values ($1)`;
  /** Seen from the other connection: the client's statement waits for a lock the other holds. */
  const clientWaitsForLock = () =>
    vi.waitFor(async () => {
      const waiting = await other.query(`select 1 from pg_stat_activity where pid = $1 and wait_event_type = 'Lock'`, [
        clientPid,
      ]);
      expect(waiting.rowCount).toBe(1);
    });

  it('runs them in order inside the transaction, which commits or rolls back whole', async () => {
    await client.query('begin', []);
    await client.query(`${NOT_WAITED_FOR}${insert}`, [1]);
    expect(await kept()).toEqual([1]);
    await client.query('rollback', []);
    await client.query('begin', []);
    await client.query(`${NOT_WAITED_FOR}${insert}`, [2]);
    await client.query('commit', []);
    expect(await kept()).toEqual([2]);
  });

  it('answers one at once while PostgreSQL still runs it, and the next statement once it has run', async () => {
    await other.query('begin');
    await other.query(`update ${table} set value = 3 where value = 2`);
    await client.query('begin', []);
    // Waits for the other connection's lock on the row, and is answered all the same.
    await client.query(`${NOT_WAITED_FOR}update ${table} set value = value + 10 where value = 2`, []);
    const next = client.query<{ value: number }>(`select value from ${table}`, []);
    // Seen from the other connection: the update waits for its lock, and the select behind it with it.
    await clientWaitsForLock();
    await other.query('commit');
    // The update found no row of 2 once the other had committed 3.
    expect((await next).rows).toEqual([{ value: 3 }]);
    await client.query('commit', []);
  });

  it('fails the next statement with the error of one that failed, and keeps nothing of the transaction', async () => {
    await client.query('begin', []);
    await client.query(`${NOT_WAITED_FOR}${insert}`, [4]);
    await client.query(`${NOT_WAITED_FOR}${insert}`, [3]);
    await expect(client.query(`select count(*) from ${table}`, [])).rejects.toThrow(/duplicate key/);
    await client.query('rollback', []);
    expect(await kept()).toEqual([3]);
  });

  it('fails the statement after a begin that failed, with the begin’s error', async () => {
    await client.query('begin', []);
    await expect(client.query('select 1 / 0', [])).rejects.toThrow(/division by zero/);
    // Begun again inside the aborted transaction: refused, and so is the insert behind it.
    await client.query('begin', []);
    await expect(client.query(insert, [5])).rejects.toThrow(/current transaction is aborted/);
    await client.query('rollback', []);
    expect(await kept()).toEqual([3]);
  });

  it('answers one to be read later at once, its rows coming with the answer of the statement after it', async () => {
    await other.query('begin');
    await other.query(`update ${table} set value = 6 where value = 3`);
    await client.query('begin', []);
    const atOnce = await client.query<{ value: number }>(
      `${ANSWERED_LATER}update ${table} set value = value + 10 returning value`,
      [],
    );
    expect(atOnce.rows).toEqual([]);
    const rows = rowsLater(atOnce.rows)!;
    // Sent at once behind it, while the update still waits for the other connection's lock on the row.
    const commit = client.query('commit', []);
    let read: unknown;
    void rows.then((value) => (read = value));
    await clientWaitsForLock();
    expect(read).toBeUndefined();
    await other.query('commit');
    await commit;
    expect(await rows).toEqual([{ value: 16 }]);
    expect(await kept()).toEqual([16]);
  });

  it('fails the commit behind one to be read later that failed, and its rows with it', async () => {
    await client.query('begin', []);
    const atOnce = await client.query(`${ANSWERED_LATER}insert into ${table} (value) values (16) returning value`, []);
    await expect(client.query('commit', [])).rejects.toThrow(/duplicate key/);
    await expect(rowsLater(atOnce.rows)).rejects.toThrow(/duplicate key/);
    expect(await kept()).toEqual([16]);
  });
});
