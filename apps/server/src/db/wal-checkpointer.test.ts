import SqliteDatabase from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from './index.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-wal-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * The rows the database file itself holds, leaving out what is still only in the log: read from a copy of the file
 * alone.
 */
function rowsInDatabaseFile(file: string): number {
  const copy = path.join(dir, `copy-${Date.now()}.db`);
  fs.copyFileSync(file, copy);
  const reader = new SqliteDatabase(copy, { readonly: true });
  try {
    const table = reader.prepare("select name from sqlite_master where name = 'notes'").get();
    return table ? (reader.prepare('select count(*) as n from notes').get() as { n: number }).n : 0;
  } finally {
    reader.close();
    fs.rmSync(copy);
  }
}

describe('the write-ahead log', () => {
  it('is copied into the database file in the background, without a commit waiting for it', async () => {
    const file = path.join(dir, 'log.db');
    const handle = openDatabase(file);
    try {
      await handle.db.schema
        .createTable('notes')
        .addColumn('id', 'integer', (col) => col.primaryKey())
        .execute();
      for (let index = 0; index < 20; index += 1)
        await handle.db
          .insertInto('notes' as never)
          .values({ id: index } as never)
          .execute();
      // Each commit only appends to the log: no commit crossed SQLite's own threshold of 1,000 pages.
      const deadline = Date.now() + 5_000;
      while (rowsInDatabaseFile(file) < 20 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(rowsInDatabaseFile(file)).toBe(20);
    } finally {
      await handle.close();
    }
  });
});
