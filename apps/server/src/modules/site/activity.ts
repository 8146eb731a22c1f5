import { sql } from 'kysely';
import type { Db } from '../../db/index.js';

export type ActivityKind = 'answers' | 'questions' | 'users' | 'likes';

export function utcDay(date = new Date()): string {
  return date.toISOString().slice(0, 10);
}

/** Counts one more (or, with -1, one less) of something on today's row of the site chart. */
export async function countActivity(trx: Db, kind: ActivityKind, delta = 1): Promise<void> {
  await trx
    .insertInto('daily_activity')
    .values({ day: utcDay(), answers: 0, questions: 0, users: 0, likes: 0, [kind]: delta })
    .onConflict((conflict) => conflict.column('day').doUpdateSet({ [kind]: sql`daily_activity.${sql.ref(kind)} + ${delta}` }))
    .execute();
}
