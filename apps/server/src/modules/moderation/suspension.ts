import type { Db } from '../../db/index.js';
import { ForbiddenError } from '../../errors.js';
import { suspensionMessage } from './notice.js';

/**
 * Nobody signs in while suspended (403, naming the reason and the end): not with a password, not with a link to choose
 * a new one.
 */
export async function refuseSuspended(db: Db, userId: number, now = new Date()): Promise<void> {
  const suspension = await db
    .selectFrom('users')
    .select(['suspension_reason', 'suspended_until'])
    .where('id', '=', userId)
    .where('suspension_reason', 'is not', null)
    .where((eb) => eb.or([eb('suspended_until', 'is', null), eb('suspended_until', '>', now.toISOString())]))
    .executeTakeFirst();
  if (suspension)
    throw new ForbiddenError(suspensionMessage(suspension.suspension_reason!, suspension.suspended_until));
}
