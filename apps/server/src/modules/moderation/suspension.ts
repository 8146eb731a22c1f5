import type { Db } from '../../db/index.js';
import { ForbiddenError } from '../../errors.js';

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
  if (suspension) {
    const reason = suspension.suspension_reason!;
    const until = suspension.suspended_until;
    throw new ForbiddenError(
      until === null
        ? { id: 'errors.suspended.noEnd', values: { reason } }
        : { id: 'errors.suspended.until', values: { reason, end: new Date(until) } },
    );
  }
}
