import type { Db } from '../../db/index.js';
import { recordVotes, type NewVote } from './questions.js';

/** A committed vote: its place in its question's order, and its voter's new `state_version`. */
export interface CommittedVote {
  seq: number;
  voterVersion: number;
}

interface Waiting {
  vote: NewVote;
  resolve(committed: CommittedVote): void;
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

  constructor(private readonly db: Db) {}

  record(vote: NewVote): Promise<CommittedVote> {
    return new Promise<CommittedVote>((resolve, reject) => {
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
    try {
      const recorded = await this.db.transaction().execute((trx) => recordVotes(trx, batch.map((entry) => entry.vote)));
      batch.forEach((entry, index) => entry.resolve({ seq: recorded.seqs[index], voterVersion: recorded.voterVersions.get(entry.vote.voter.id)! }));
      return;
    } catch (error) {
      if (batch.length === 1) {
        batch[0].reject(error);
        return;
      }
    }
    for (const entry of batch) {
      try {
        const recorded = await this.db.transaction().execute((trx) => recordVotes(trx, [entry.vote]));
        entry.resolve({ seq: recorded.seqs[0], voterVersion: recorded.voterVersions.get(entry.vote.voter.id)! });
      } catch (error) {
        entry.reject(error);
      }
    }
  }
}
