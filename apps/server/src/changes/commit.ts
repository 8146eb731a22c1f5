import type { Db } from '../db/index.js';
import { countActivityOf } from '../modules/site/index.js';
import type { Change, ChangeMade } from './change.js';
import { movePeopleRows } from './state-versions.js';
import { within } from './within.js';

/** What a write returns: the changes it made, alone or beside what else its caller answers with. */
export type Made = ChangeMade | null | readonly ChangeMade[] | { changes: readonly ChangeMade[] };

function changesIn(made: Made): readonly ChangeMade[] {
  if (made === null) return [];
  if (Array.isArray(made)) return made;
  return 'kind' in made ? [made as ChangeMade] : (made as { changes: readonly ChangeMade[] }).changes;
}

/** A write committed: what it returned, and every change committed with it. */
export interface Committed<M extends Made> {
  made: M;
  /** The write's own changes, stamped with their state versions, in the order it made them; then what they caused. */
  changes: Change[];
}

/**
 * Runs `write` in a transaction with what its changes cause besides themselves: the rows of the
 * people they concern (state versions and own counts, state-versions.ts), the notifications they
 * send (within.ts) and the site chart's counts, so that all commit or none. The one way a write
 * commits, a single request's or a batch of votes.
 */
export async function commitWrite<M extends Made>(db: Db, write: (trx: Db) => Promise<M>): Promise<Committed<M>> {
  const { made, stamped, caused } = await db.transaction().execute(async (trx) => {
    const made = await write(trx);
    const changes = changesIn(made);
    // Stamped once the commit is answered: nothing written after needs the versions, so the commit goes with them.
    const { stamped } = await movePeopleRows(trx, changes);
    const caused = await within(trx, changes);
    // The site chart last, as every write counts there: one order of locks for all.
    await countActivityOf(trx, changes);
    return { made, stamped, caused };
  });
  return { made, changes: [...(await stamped), ...caused] };
}

/**
 * What a write that tells nobody counts of its changes, as commitWrite does: the people's rows (state versions and
 * own counts), then the site chart. For the seeds, which write as people would and notify no one.
 */
export async function countWithoutTelling(trx: Db, made: readonly ChangeMade[]): Promise<void> {
  await movePeopleRows(trx, made);
  await countActivityOf(trx, made);
}
