import type { Role } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors.js';

/** The people who act on reports. */
export const MODERATING_ROLES: readonly Role[] = ['moderator', 'admin'];

/**
 * The caller's role, read at every call that needs it rather than kept with the session: a role
 * set from the command line (`npm run user:role`) or by an admin counts from the person's next
 * call on every instance. 403 when it is not one of `allowed`.
 */
export async function requireRole(db: Db, userId: number, allowed: readonly Role[]): Promise<Role> {
  const person = await db.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst();
  if (!person || !allowed.includes(person.role)) {
    throw new ForbiddenError(
      allowed.includes('moderator') ? 'errors.moderation.moderatorsOnly' : 'errors.moderation.adminsOnly',
    );
  }
  return person.role;
}

/**
 * An admin names a moderator or makes one a member again. Admins are named by ADMIN_EMAILS or on
 * the command line only, so an admin's role is not changed here (403), nor the caller's own (400).
 */
export async function setRole(trx: Db, adminId: number, userId: number, role: Exclude<Role, 'admin'>): Promise<void> {
  if (userId === adminId) throw new BadRequestError('errors.moderation.ownRole');
  const person = await trx.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst();
  if (!person) throw new NotFoundError('errors.noSuchUser');
  if (person.role === 'admin') throw new ForbiddenError('errors.moderation.adminStays');
  await trx.updateTable('users').set({ role }).where('id', '=', userId).execute();
}

/** Sets the role of the account with `email` (the command line's `npm run user:role`); false when there is none. */
export async function setRoleByEmail(db: Db, email: string, role: Role): Promise<boolean> {
  const { numUpdatedRows } = await db
    .updateTable('users')
    .set({ role })
    .where('email', '=', email.trim().toLowerCase())
    .executeTakeFirst();
  return numUpdatedRows > 0n;
}
