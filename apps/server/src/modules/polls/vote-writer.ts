import { Histogram, type Registry } from 'prom-client';
import type { Change } from '../../changes/change.js';
import type { Made } from '../../changes/commit.js';
import { isDatabaseUnavailable } from '../../db/dialect.js';
import type { Db } from '../../db/index.js';
import { METRIC_PREFIX, registerGauge } from '../../lib/metrics.js';
import { recordVotes, type NewVote, type VotedChange } from './questions.js';

interface Waiting {
  vote: NewVote;
  resolve(committed: VotedChange): void;
  reject(error: unknown): void;
}

/** Enough to share a commit widely, small enough that one batch never holds the database for long. */
const MAX_BATCH = 256;

/**
 * Writes the votes of concurrent requests together: while one batch commits, the votes that
 * arrive wait and then go in the next, in one transaction whose statements count for all of
 * them. A commit is what a vote costs most (a write to the log on disk, a sync in PostgreSQL),
 * so under load each vote pays a share of one. Every request is answered only once its vote has
 * committed, so an acknowledged vote is never lost. A batch that fails (a second vote by the
 * same person, say) is written again vote by vote, so each request gets its own answer.
 */
export class VoteWriter {
  private waiting: Waiting[] = [];
  private writing = false;
  private readonly batchSizes: Histogram;

  constructor(
    /** Commits each batch as every write commits (changes.commitChanges), and returns its changes before its requests are answered. */
    private readonly commit: (write: (trx: Db) => Promise<Made>) => Promise<readonly Change[]>,
    metrics: Registry,
  ) {
    this.batchSizes = new Histogram({
      name: `${METRIC_PREFIX}vote_batch_size`,
      help: 'Votes written per transaction by the vote writer (a batch tried again vote by vote counts each try)',
      buckets: [1, 2, 4, 8, 16, 32, 64, 128, 256],
      registers: [metrics],
    });
    registerGauge(metrics, 'vote_queue', 'Votes waiting for the batch being written to commit', () => this.waiting.length);
  }

  record(vote: NewVote): Promise<VotedChange> {
    return new Promise<VotedChange>((resolve, reject) => {
      this.waiting.push({ vote, resolve, reject });
      if (!this.writing) {
        this.writing = true;
        // The votes of requests already under way join the first batch.
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

  private async writeBatch(batch: Waiting[]): Promise<void> {
    const failure = await this.write(batch);
    if (failure === null || batch.length === 1) return;
    // The database away or full refuses every vote alike: each is answered at once, not tried again alone.
    if (isDatabaseUnavailable(failure)) {
      for (const entry of batch) entry.reject(failure);
      return;
    }
    for (const entry of batch) await this.write([entry]);
  }

  /**
   * Writes the votes in one transaction and answers their requests; or returns why it failed, once
   * a lone vote's request is refused with it. A vote whose commit was cut off may have committed:
   * its request is refused all the same, so that no vote is acknowledged that may not be stored.
   */
  private async write(batch: Waiting[]): Promise<unknown> {
    let changes: readonly Change[];
    this.batchSizes.observe(batch.length);
    try {
      // What the votes cause (their voters' state versions, a milestone's notification) commits with them, in the batch's one transaction.
      changes = await this.commit((trx) =>
        recordVotes(
          trx,
          batch.map((entry) => entry.vote),
        ),
      );
    } catch (error) {
      if (batch.length === 1) batch[0].reject(error);
      return error;
    }
    // The batch's votes come first, in the order of its requests; what they caused follows.
    const voted = changes.filter((change): change is VotedChange => change.kind === 'voted');
    batch.forEach((entry, index) => entry.resolve(voted[index]));
    return null;
  }
}
