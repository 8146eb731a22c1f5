import SqliteDatabase from 'better-sqlite3';
import fs from 'node:fs';
import path from 'node:path';

/** `data/pollscope.db` is backed up to `data/backups/pollscope-2024-05-01T12-30-00Z.db`. */
export function defaultBackupPath(databasePath: string, now = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-');
  const name = path.basename(databasePath, path.extname(databasePath));
  return path.join(path.dirname(databasePath), 'backups', `${name}-${stamp}.db`);
}

/**
 * Copies a SQLite database that the server may be writing to, with SQLite's online backup.
 * All pages are copied in one step inside one read transaction: in WAL mode that is a
 * consistent snapshot that never blocks the server's writes, where copying in slices would
 * restart each time the server commits. The copy is made a single self-contained file (no
 * write-ahead log beside it) and checked before this returns.
 */
export async function backupSqlite(source: string, destination: string): Promise<{ bytes: number }> {
  if (fs.existsSync(destination)) throw new Error(`${destination} already exists`);
  fs.mkdirSync(path.dirname(destination), { recursive: true });
  const live = new SqliteDatabase(source, { readonly: true, fileMustExist: true });
  try {
    await live.backup(destination, { progress: () => Number.MAX_SAFE_INTEGER });
  } finally {
    live.close();
  }
  const copy = new SqliteDatabase(destination, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const integrity = copy.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new Error(`The backup at ${destination} is damaged: ${String(integrity)}`);
  } finally {
    copy.close();
  }
  return { bytes: fs.statSync(destination).size };
}
