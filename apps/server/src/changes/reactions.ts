import type { Db } from '../db/index.js';
import type { Change, ChangeMade, HeardChange, HeardKind, HeardOf } from './change.js';

/** Where a change was committed: this instance knows the moment it committed, another does not. */
export type Origin = 'here' | 'elsewhere';

/**
 * What one owner of a copy kept in memory or of live streams does once a change has committed, for each kind it may
 * hear (`missed` too): null where the kind leaves it alone. Every kind is named, so a new kind does not compile until
 * each owner says what it does with it.
 */
export type Applier = { readonly [K in HeardKind]: ((change: HeardOf<K>, origin: Origin) => void) | null };

/**
 * What a write's changes cause in its transaction besides themselves and the rows of the people they concern (the
 * notifications of what people did, the site chart's counts), so that both commit or neither. Returns the changes of
 * what it wrote, if any, committed after the write's own.
 */
export type Cause = (trx: Db, changes: readonly ChangeMade[]) => Promise<readonly Change[] | void>;

/**
 * What the module areas registered with the change layer: the causes, run in the order registered (the order in which
 * every write locks their rows), and the appliers, called in the order registered (an owner registered after another
 * sees the other's copies updated: a live stream reads the card that counted the vote).
 */
export class Reactions {
  private readonly causes: Cause[] = [];
  private readonly appliers: Applier[] = [];

  addCause(cause: Cause): void {
    this.causes.push(cause);
  }

  addApplier(applier: Applier): void {
    this.appliers.push(applier);
  }

  /** Runs every cause on the write's changes, in its transaction; returns the changes they made. */
  async cause(trx: Db, changes: readonly ChangeMade[]): Promise<Change[]> {
    const caused: Change[] = [];
    for (const cause of this.causes) {
      const made = await cause(trx, changes);
      if (made) caused.push(...made);
    }
    return caused;
  }

  /** Applies a committed change, made here or heard from another instance, with each applier in turn. */
  apply(change: HeardChange, origin: Origin): void {
    for (const applier of this.appliers) {
      const apply = applier[change.kind] as ((change: HeardChange, origin: Origin) => void) | null;
      if (apply !== null) apply(change, origin);
    }
  }
}
