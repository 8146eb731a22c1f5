import type SqliteDatabase from 'better-sqlite3';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the log is copied into the database file. */
const CHECKPOINT_INTERVAL_MS = 500;

/** The worker's own code: a second connection that checkpoints on a timer until told to stop. */
const workerSource = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const connection = new Database(workerData.file);
connection.pragma('busy_timeout = 5000');
// A disk full for a while (SQLITE_FULL) fails a checkpoint, not the worker: the next one copies what this could not.
const checkpoint = () => {
  try {
    connection.pragma('wal_checkpoint(PASSIVE)');
  } catch {}
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  connection.close();
  parentPort.close();
});
`;

/**
 * Copies the write-ahead log into the database file from a worker thread. SQLite does it by
 * default inside whichever commit crosses 1,000 pages of log, and that commit then waits for
 * the copy and its sync to disk: a vote every few dozen would take many milliseconds, and every
 * request of the process behind it. In the worker the copy and the sync happen beside the
 * requests; a passive checkpoint never blocks a writer or a reader. Should the worker fail, the
 * connection goes back to checkpointing in its commits, so the log never grows without bound.
 */
export function checkpointInBackground(sqlite: SqliteDatabase.Database, file: string): () => Promise<void> {
  sqlite.pragma('wal_autocheckpoint = 0');
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: {
      driver: createRequire(import.meta.url).resolve('better-sqlite3'),
      file,
      intervalMs: CHECKPOINT_INTERVAL_MS,
    },
  });
  worker.unref();
  const fallBack = () => {
    if (sqlite.open) sqlite.pragma('wal_autocheckpoint = 1000');
  };
  worker.once('error', fallBack);
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return async () => {
    worker.off('error', fallBack);
    // Held until the worker has closed its connection.
    worker.ref();
    worker.postMessage('stop');
    await exited;
  };
}
