import type { Registry } from 'prom-client';
import type { Db } from '../db/index.js';
import { BatchedWriter, type BatchedWrites } from './batched-writer.js';
import type { Change, HeardChange } from './change.js';
import { commitWrite, type Committed, type Made } from './commit.js';
import { Reactions, type Applier, type Cause } from './reactions.js';

/** The change layer as the app uses it (`app.changes`): how writes commit, and what the module areas register. */
export interface Changes {
  /**
   * Runs `write` in a transaction, with what its changes cause (commit.ts), and once it has committed applies all
   * their changes here and tells the other instances. Returns what `write` returned.
   */
  commit<M extends Made>(write: (trx: Db) => Promise<M>): Promise<M>;
  /** Commits as `commit` does, and returns every change committed, stamped with its state version. */
  commitChanges(write: (trx: Db) => Promise<Made>): Promise<readonly Change[]>;
  /** A writer of what concurrent requests ask together, each batch committed as `commit` commits (batched-writer.ts). */
  batched<Item, Result>(writes: BatchedWrites<Item, Result>): BatchedWriter<Item, Result>;
  /** Registers what a write's changes cause in its transaction, after the causes registered before it. */
  addCause(cause: Cause): void;
  /** Registers what an owner of copies or streams does once a change committed, after the appliers registered before. */
  addApplier(applier: Applier): void;
}

/**
 * The one path of every committed change: committed with what it causes, applied to what this instance keeps and
 * streams, and handed to `publish` for the other instances, whose changes come back through `heard`.
 */
export class ChangeLayer implements Changes {
  private readonly reactions = new Reactions();

  constructor(
    private readonly db: Db,
    private readonly metrics: Registry,
    /** Tells the other instances of a change applied here. */
    private readonly publish: (change: Change) => void,
  ) {}

  async commit<M extends Made>(write: (trx: Db) => Promise<M>): Promise<M> {
    return (await this.committed(write)).made;
  }

  async commitChanges(write: (trx: Db) => Promise<Made>): Promise<readonly Change[]> {
    return (await this.committed(write)).changes;
  }

  batched<Item, Result>(writes: BatchedWrites<Item, Result>): BatchedWriter<Item, Result> {
    return new BatchedWriter(writes, (write) => this.commitChanges(write), this.metrics);
  }

  addCause(cause: Cause): void {
    this.reactions.addCause(cause);
  }

  addApplier(applier: Applier): void {
    this.reactions.addApplier(applier);
  }

  /** A change committed by another instance, or `missed` when changes may have gone unheard. */
  heard(change: HeardChange): void {
    this.reactions.apply(change, 'elsewhere');
  }

  private async committed<M extends Made>(write: (trx: Db) => Promise<M>): Promise<Committed<M>> {
    const done = await commitWrite(this.db, this.reactions, write);
    for (const change of done.changes) {
      this.reactions.apply(change, 'here');
      this.publish(change);
    }
    return done;
  }
}
