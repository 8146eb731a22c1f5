import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreparingClient } from './prepared-statements.js';
import { testPostgresUrl } from '../test/postgres.js';

// Run on the PostgreSQL pass of `npm test`; SQLite has no statements kept by the server.
describe.runIf(testPostgresUrl)('statements prepared per connection', () => {
  let client: PreparingClient;
  beforeAll(async () => {
    client = new PreparingClient({ connectionString: testPostgresUrl! });
    await client.connect();
  });
  afterAll(() => client.end());

  // Asked as a query object, which goes as it comes: it is never prepared itself.
  const preparedOnThisConnection = async () =>
    (await client.query<{ statement: string }>({ text: 'select statement from pg_prepared_statements' })).rows.map(
      (row) => row.statement,
    );

  it('prepares a statement the second time it is asked, and answers it the same each time', async () => {
    const text = 'select $1::int + 1 as next';
    const answers = [];
    for (let run = 0; run < 3; run += 1) answers.push((await client.query(text, [run])).rows);
    expect(answers).toEqual([[{ next: 1 }], [{ next: 2 }], [{ next: 3 }]]);
    expect(await preparedOnThisConnection()).toEqual([text]);
  });

  it('leaves transaction control and statements asked once unprepared', async () => {
    await client.query('begin', []);
    await client.query('select 2 as once', []);
    await client.query('commit', []);
    await client.query('begin', []);
    await client.query('commit', []);
    expect(await preparedOnThisConnection()).toEqual(['select $1::int + 1 as next']);
  });

  it('prepares at most 256 statements on one connection, and answers the rest unprepared', async () => {
    for (let index = 0; index < 300; index += 1)
      for (let run = 0; run < 2; run += 1)
        expect((await client.query(`select ${index} as value`, [])).rows).toEqual([{ value: index }]);
    expect(await preparedOnThisConnection()).toHaveLength(256);
  });
});
