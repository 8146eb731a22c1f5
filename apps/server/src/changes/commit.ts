import type { Db } from '../db/index.js';
import type { Change, ChangeMade } from './change.js';
import type { Reactions } from './reactions.js';
import { movePeopleRows } from './state-versions.js';

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
 * Runs `write` in a transaction with what its changes cause besides themselves: the rows of the people they concern
 * (state versions and own counts, state-versions.ts), then what the module areas registered (reactions.ts: who is
 * told, the site chart), so that all commit or none. The one way a write commits, a single request's or a batch of
 * votes. The commit waits for the answer of every statement sent before it (db/pipelining.ts), the people's rows
 * among them, so the changes are stamped with the versions those rows returned once it is answered, at no round trip
 * of their own.
 */
export async function commitWrite<M extends Made>(
  db: Db,
  reactions: Reactions,
  write: (trx: Db) => Promise<M>,
): Promise<Committed<M>> {
  const { made, moved, caused } = await db.transaction().execute(async (trx) => {
    const made = await write(trx);
    const changes = changesIn(made);
    const moved = await movePeopleRows(trx, changes);
    return { made, moved, caused: await reactions.cause(trx, changes) };
  });
  return { made, changes: [...(await moved.stamped()), ...caused] };
}
