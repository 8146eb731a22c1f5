import { sql } from 'kysely';
import { setTimeout as sleep } from 'node:timers/promises';
import { isPostgresUrl } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/db/index.js';

/** How often PostgreSQL's backends are looked at while a call is measured. */
const SAMPLE_MS = 100;

/** Backends waiting for a lock while a call was measured, from `pg_stat_activity` sampled every SAMPLE_MS. */
export interface LockWaits {
  samples: number;
  /** Backends waiting for a lock, on average over the samples and at most in one. */
  meanWaiting: number;
  maxWaiting: number;
  /** The average by what they waited for (`wait_event`: transactionid, tuple, relation…), the most first. */
  byEvent: Record<string, number>;
}

export interface LockWaitSampler {
  /** Samples from `delayMs` on (after a warm-up) until the returned function is called, which returns what was seen. */
  during(delayMs: number): () => Promise<LockWaits>;
  close(): Promise<void>;
}

const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * A sampler of the benchmark's PostgreSQL database, or null on SQLite, where a writer waits on the file, not on rows.
 */
export function lockWaitSampler(databaseUrl: string): LockWaitSampler | null {
  if (!isPostgresUrl(databaseUrl)) return null;
  const database: DatabaseHandle = openDatabase(databaseUrl, { poolSize: 1 });
  return {
    during(delayMs) {
      let sampling = true;
      const waiting: number[] = [];
      const byEvent = new Map<string, number>();
      const run = (async () => {
        await sleep(delayMs);
        while (sampling) {
          const { rows } = await sql<{ event: string; backends: number }>`
            select wait_event as event, count(*) as backends from pg_stat_activity where wait_event_type = 'Lock' group by wait_event`.execute(
            database.db,
          );
          waiting.push(rows.reduce((sum, row) => sum + row.backends, 0));
          for (const row of rows) byEvent.set(row.event, (byEvent.get(row.event) ?? 0) + row.backends);
          await sleep(SAMPLE_MS);
        }
      })();
      return async () => {
        sampling = false;
        await run;
        const samples = Math.max(1, waiting.length);
        return {
          samples: waiting.length,
          meanWaiting: round2(waiting.reduce((sum, count) => sum + count, 0) / samples),
          maxWaiting: Math.max(0, ...waiting),
          byEvent: Object.fromEntries(
            [...byEvent].sort(([, a], [, b]) => b - a).map(([event, total]) => [event, round2(total / samples)]),
          ),
        };
      };
    },
    close: () => database.close(),
  };
}
