import { Histogram, type Registry } from 'prom-client';
import { isDatabaseUnavailable } from '../db/database-errors.js';
import type { Db } from '../db/index.js';
import { METRIC_PREFIX, registerGauge } from '../lib/metrics.js';
import type { Change } from './change.js';
import type { Made } from './commit.js';

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

/** Enough to share a commit widely, small enough that one batch never holds the database for long. */
const MAX_BATCH = 256;

export interface BatchedWrites<Item, Result> {
  /** Names the metrics, `pollscope_<name>_batch_size` and `pollscope_<name>_queue`: `vote`, `like`. */
  name: string;
  /** What is written, for the metrics' help: `Votes`, `Likes`. */
  noun: string;
  /** Writes the items, in their order, in the batch's transaction. */
  write: (trx: Db, items: readonly Item[]) => Promise<Made>;
  /** Each item's answer, in their order, from the changes the batch committed. */
  results: (changes: readonly Change[], items: readonly Item[]) => Result[];
  /** What a batch whose commit failed with `error` is refused with, when not the error itself. */
  refusal?: (error: unknown) => unknown;
}

/** Commits a write as every write commits (commit.ts), and returns its changes. */
export type CommitChanges = (write: (trx: Db) => Promise<Made>) => Promise<readonly Change[]>;

/**
 * Writes what concurrent requests ask together: while one batch commits, the items that arrive
 * wait and then go in the next, in one transaction whose statements count for all of them. A
 * commit is what a write costs most (a write to the log on disk, a sync in PostgreSQL), so under
 * load each pays a share of one, and rows that many of them update (a popular question's counts)
 * are updated once per batch rather than queued for. Every request is answered only once its item
 * has committed, so an acknowledged write is never lost. A batch that fails (a second vote by the
 * same person, say) is written again item by item, so each request gets its own answer.
 */
export class BatchedWriter<Item, Result> {
  private waiting: Waiting<Item, Result>[] = [];
  private writing = false;
  private readonly batchSizes: Histogram;
  private readonly batchSeconds: Histogram;

  constructor(
    private readonly writes: BatchedWrites<Item, Result>,
    private readonly commit: CommitChanges,
    metrics: Registry,
  ) {
    const { name, noun } = writes;
    this.batchSizes = new Histogram({
      name: `${METRIC_PREFIX}${name}_batch_size`,
      help: `${noun} written per transaction (a batch tried again one by one counts each try)`,
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers: [metrics],
    });
    // A batch's time is its statements' round trips and its commit: under load, what bounds these writes per second.
    this.batchSeconds = new Histogram({
      name: `${METRIC_PREFIX}${name}_batch_seconds`,
      help: `Time to write and commit a transaction of ${noun.toLowerCase()} (a batch tried again one by one counts each try)`,
      buckets: [0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256],
      registers: [metrics],
    });
    registerGauge(
      metrics,
      `${name}_queue`,
      `${noun} waiting for the batch being written to commit`,
      () => this.waiting.length,
    );
  }

  record(item: Item): Promise<Result> {
    return new Promise<Result>((resolve, reject) => {
      this.waiting.push({ item, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        // The items of requests already under way join the first batch.
        setImmediate(() => void this.writeWaiting());
      }
    });
  }

  private async writeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      await this.writeBatch(this.waiting.splice(0, MAX_BATCH));
    }
    this.writing = false;
  }

  private async writeBatch(batch: Waiting<Item, Result>[]): Promise<void> {
    const failure = await this.write(batch);
    if (failure === null || batch.length === 1) return;
    // The database away or full refuses every item alike: each is answered at once, not tried again alone.
    if (isDatabaseUnavailable(failure)) {
      for (const entry of batch) entry.reject(failure);
      return;
    }
    for (const entry of batch) await this.write([entry]);
  }

  /**
   * Writes the items in one transaction and answers their requests; or returns why it failed, once
   * a lone item's request is refused with it. An item whose commit was cut off may have committed:
   * its request is refused all the same, so that nothing is acknowledged that may not be stored.
   */
  private async write(batch: Waiting<Item, Result>[]): Promise<unknown> {
    const items = batch.map((entry) => entry.item);
    let changes: readonly Change[];
    this.batchSizes.observe(batch.length);
    const timer = this.batchSeconds.startTimer();
    try {
      // What the items cause (state versions, notifications) commits with them, in the batch's one transaction.
      changes = await this.commit((trx) => this.writes.write(trx, items));
    } catch (committing) {
      const error = this.writes.refusal ? this.writes.refusal(committing) : committing;
      if (batch.length === 1) batch[0].reject(error);
      return error;
    } finally {
      timer();
    }
    const results = this.writes.results(changes, items);
    batch.forEach((entry, index) => entry.resolve(results[index]));
    return null;
  }
}
