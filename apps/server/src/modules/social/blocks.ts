import type { ExpressionBuilder, Expression, SqlBool } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database } from '../../db/schema.js';

/** A condition on `blocks`: either of the two blocked the other. */
export function blockedEitherWay(userId: number, other: number | Expression<number>) {
  return (eb: ExpressionBuilder<Database, 'blocks'>): Expression<SqlBool> =>
    eb.or([
      eb.and([eb('blocks.blocker_id', '=', userId), eb('blocks.blocked_id', '=', other)]),
      eb.and([eb('blocks.blocker_id', '=', other), eb('blocks.blocked_id', '=', userId)]),
    ]);
}

export async function isBlockedEitherWay(db: Db, userId: number, otherId: number): Promise<boolean> {
  const row = await db
    .selectFrom('blocks')
    .select('blocker_id')
    .where(blockedEitherWay(userId, otherId))
    .executeTakeFirst();
  return row !== undefined;
}
