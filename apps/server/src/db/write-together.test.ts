import { sql, type KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../test/helper.js';
import { testPostgresUrl } from '../test/postgres.js';
import { WritesCompiledOnce } from './compiled-query.js';
import { isUniqueViolation } from './database-errors.js';
import { dialectOf, rowsFrom } from './dialect.js';
import { writeWithoutWaiting } from './pipelining.js';
import { openDatabase, type DatabaseHandle, type Db } from './index.js';

describe('writes that need nothing from one another, run together', () => {
  let testDatabase: TestDatabase;
  let database: DatabaseHandle;
  let statements = 0;
  /** Counts the statements the database answered: each is a round trip to PostgreSQL. */
  const counting: KyselyPlugin = {
    transformQuery: ({ node }) => node,
    transformResult: async ({ result }) => {
      statements += 1;
      return result;
    },
  };
  beforeAll(async () => {
    testDatabase = await createTestDatabase();
    database = openDatabase(testDatabase.url);
  });
  afterAll(async () => {
    await database?.close();
    await testDatabase?.drop();
  });

  const day = (date: string, answers: number) => ({ day: date, shard: 0, answers, questions: 0, users: 0, likes: 0 });
  const SHARD_COLUMNS = {
    day: 'text',
    shard: 'integer',
    answers: 'integer',
    questions: 'integer',
    users: 'integer',
    likes: 'integer',
  } as const;
  /** Days' rows inserted, and one day's answers counted up: two writes, compiled once, whatever the rows. */
  const insertAndCountUp = new WritesCompiledOnce(['rows', 'day'] as [unknown, unknown], (db, rows, countedUp) => [
    db
      .insertInto('daily_activity_shards')
      .columns(Object.keys(SHARD_COLUMNS) as (keyof typeof SHARD_COLUMNS)[])
      .expression(db.selectFrom(rowsFrom(dialectOf(db), rows, SHARD_COLUMNS, 'given')).selectAll()),
    db
      .updateTable('daily_activity_shards')
      .set({ answers: sql`answers + 1` })
      .where('day', '=', countedUp as string),
  ]);
  const days = () =>
    database.db
      .selectFrom('daily_activity_shards')
      .select(['day', 'answers'])
      .where('day', 'like', '2020-%')
      .orderBy('day')
      .execute();

  it('makes every write with the values given, in one statement on PostgreSQL and one each on SQLite', async () => {
    const db = database.db.withPlugin(counting);
    statements = 0;
    await insertAndCountUp.run(db, JSON.stringify([day('2020-01-01', 3)]), '2020-01-03');
    expect(statements).toBe(testPostgresUrl ? 1 : 2);
    expect(await days()).toEqual([{ day: '2020-01-01', answers: 3 }]);
    // Run again, with more rows and another day: the same statements, the new values.
    await insertAndCountUp.run(db, JSON.stringify([day('2020-01-02', 4), day('2020-01-03', 0)]), '2020-01-01');
    expect(await days()).toEqual([
      { day: '2020-01-01', answers: 4 },
      { day: '2020-01-02', answers: 4 },
      { day: '2020-01-03', answers: 0 },
    ]);
  });

  /** What a transaction that writes with `write` failed with. */
  const failureOf = (write: (trx: Db) => Promise<unknown>) =>
    database.db
      .transaction()
      .execute(write)
      .catch((error: unknown) => error);

  it('leaves nothing written when one of them fails, in a transaction', async () => {
    const failure = await failureOf(async (trx) => {
      await insertAndCountUp.run(trx, JSON.stringify([day('2020-01-05', 1), day('2020-01-01', 9)]), '2020-01-02');
      await trx.selectFrom('daily_activity_shards').select('day').execute();
    });
    expect(isUniqueViolation(failure)).toBe(true);
    expect(await days()).toEqual([
      { day: '2020-01-01', answers: 4 },
      { day: '2020-01-02', answers: 4 },
      { day: '2020-01-03', answers: 0 },
    ]);
  });

  it('fails the transaction with the error of a write not waited for, and keeps nothing of it', async () => {
    const failure = await failureOf(async (trx) => {
      await writeWithoutWaiting(trx, trx.insertInto('daily_activity_shards').values(day('2020-01-06', 1)));
      await writeWithoutWaiting(trx, trx.insertInto('daily_activity_shards').values(day('2020-01-01', 9)));
      await trx.insertInto('daily_activity_shards').values(day('2020-01-07', 1)).execute();
    });
    expect(isUniqueViolation(failure)).toBe(true);
    await database.db.transaction().execute(async (trx) => {
      await writeWithoutWaiting(
        trx,
        trx.updateTable('daily_activity_shards').set({ answers: 8 }).where('day', '=', '2020-01-02'),
      );
    });
    expect(await days()).toEqual([
      { day: '2020-01-01', answers: 4 },
      { day: '2020-01-02', answers: 8 },
      { day: '2020-01-03', answers: 0 },
    ]);
  });
});
