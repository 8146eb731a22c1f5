import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCommunity, runCommand, startServer, streamVotes, type ServerProcess } from '../test/server-process.js';
import { backupSqlite, defaultBackupPath } from './backup.js';
import { findTallyMismatches } from './check.js';
import { openDatabase } from './index.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-backup-'));
const databaseUrl = path.join(dir, 'live.db');
let server: ServerProcess | undefined;
afterAll(async () => {
  await server?.stop('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
});

async function countOf(file: string, table: 'votes' | 'users'): Promise<number> {
  const database = openDatabase(file);
  try {
    const row = await database.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  } finally {
    await database.close();
  }
}

describe('db:backup', () => {
  it(
    'copies the database while the server writes, into a sound database that passes db:check',
    { timeout: 120_000 },
    async () => {
      server = await startServer(databaseUrl);
      // Pairs to spare: the votes stop 50 after the copy ends, and on busy cores the copy (a command started from
      // source) has taken as long as 775 votes.
      const community = await createCommunity(server.baseUrl, { voters: 80, questions: 40 });
      const destination = path.join(dir, 'copies', 'backup.db');

      let backup: ReturnType<typeof runCommand> | undefined;
      let ackedBefore = 0;
      let ackedAfter = 0;
      let latest = 0;
      const { acknowledged } = await streamVotes(server.baseUrl, community, {
        concurrency: 8,
        stop: (count) => {
          latest = count;
          if (count >= 50 && !backup) {
            ackedBefore = count;
            backup = runCommand('src/db/backup-cli.ts', [destination], { DATABASE_URL: databaseUrl });
            void backup.then(() => (ackedAfter = latest));
          }
          return ackedAfter > 0 && count >= ackedAfter + 50;
        },
      });
      const result = await backup!;
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(`to ${destination}`);
      // Votes went on while the copy was made, and after it.
      expect(ackedAfter).toBeGreaterThan(ackedBefore);
      expect(acknowledged.length).toBeGreaterThanOrEqual(ackedAfter + 50);

      expect(fs.readdirSync(path.dirname(destination))).toEqual(['backup.db']);
      const copied = await countOf(destination, 'votes');
      expect(copied).toBeGreaterThanOrEqual(ackedBefore);
      expect(copied).toBeLessThanOrEqual(acknowledged.length);
      expect(await countOf(destination, 'users')).toBe(await countOf(databaseUrl, 'users'));

      const copy = openDatabase(destination);
      try {
        expect(await findTallyMismatches(copy.db)).toEqual([]);
      } finally {
        await copy.close();
      }
      const check = await runCommand('src/db/check-cli.ts', [destination]);
      expect(check.code).toBe(0);
    },
  );

  it('never overwrites an earlier backup', async () => {
    const destination = path.join(dir, 'taken.db');
    fs.writeFileSync(destination, 'an earlier backup');
    await expect(backupSqlite(databaseUrl, destination)).rejects.toThrow('already exists');
    expect(fs.readFileSync(destination, 'utf8')).toBe('an earlier backup');
  });

  it('names a backup after the database and the time, under backups/ beside it', () => {
    expect(defaultBackupPath('/srv/data/pollscope.db', new Date('2024-05-01T12:30:05.123Z'))).toBe(
      '/srv/data/backups/pollscope-2024-05-01T12-30-05Z.db',
    );
  });
});
