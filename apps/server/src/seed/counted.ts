import type { ChangeMade } from '../changes/change.js';
import { movePeopleRows } from '../changes/state-versions.js';
import type { Db } from '../db/index.js';
import { countActivityOf } from '../modules/site/index.js';

/**
 * What a write that tells nobody counts of its changes, as a commit does: the people's rows (state versions and own
 * counts), then the site chart. For the seeds, which write as people would and notify no one.
 */
export async function countWithoutTelling(trx: Db, made: readonly ChangeMade[]): Promise<void> {
  const moved = await movePeopleRows(trx, made);
  await countActivityOf(trx, made);
  await moved.stamped();
}
