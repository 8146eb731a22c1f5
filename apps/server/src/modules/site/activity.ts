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

/** What is taken away from each day's row: so many answers, questions, people and likes. */
export type ActivityByDay = Map<string, Record<ActivityKind, number>>;

/** Counts one more of `kind` on the day of `at` (an ISO time) in `byDay`. */
export function addActivity(byDay: ActivityByDay, kind: ActivityKind, at: string, count = 1): void {
  const day = at.slice(0, 10);
  let row = byDay.get(day);
  if (!row) byDay.set(day, (row = { answers: 0, questions: 0, users: 0, likes: 0 }));
  row[kind] += count;
}

/** Rows of days written per statement: five parameters each. */
const DAYS_PER_STATEMENT = 500;

/** Takes away from each day's row of the site chart what `byDay` says was done that day and is gone. */
export async function uncountActivity(trx: Db, byDay: ActivityByDay): Promise<void> {
  const rows = [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([day, row]) => ({ day, answers: -row.answers, questions: -row.questions, users: -row.users, likes: -row.likes }));
  for (let start = 0; start < rows.length; start += DAYS_PER_STATEMENT) {
    await trx
      .insertInto('daily_activity')
      .values(rows.slice(start, start + DAYS_PER_STATEMENT))
      .onConflict((conflict) =>
        conflict.column('day').doUpdateSet({
          answers: sql`daily_activity.answers + excluded.answers`,
          questions: sql`daily_activity.questions + excluded.questions`,
          users: sql`daily_activity.users + excluded.users`,
          likes: sql`daily_activity.likes + excluded.likes`,
        }),
      )
      .execute();
  }
}
