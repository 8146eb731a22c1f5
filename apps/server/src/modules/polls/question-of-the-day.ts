import { sql } from 'kysely';
import { isDatabaseUnavailable } from '../../db/database-errors.js';
import type { Db } from '../../db/index.js';
import { utcDay } from '../site/index.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * The question of a UTC day: the most voted plus liked among those published in the 7 days
 * before it (ties: lowest id) that moderators withhold from nobody. Chosen once, by whichever
 * request comes first, and stored, so it stays the same all day on every server.
 */
async function questionOfDay(db: Db, day: string): Promise<{ questionId: number | null; stored: boolean }> {
  const stored = await db
    .selectFrom('questions_of_the_day')
    .select('question_id')
    .where('day', '=', day)
    .executeTakeFirst();
  if (stored) return { questionId: stored.question_id, stored: true };
  const dayStart = Date.parse(`${day}T00:00:00Z`);
  const best = await db
    .selectFrom('questions')
    .select('id')
    .where('published_at', '>=', new Date(dayStart - 7 * DAY_MS).toISOString())
    .where('published_at', '<', new Date(dayStart).toISOString())
    // Chosen for the whole day: among the questions everyone may see (views/rules.ts, isWithheld), else nobody would
    // see the day's.
    .where('moderation', 'is', null)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('users')
            .select('users.id')
            .whereRef('users.id', '=', 'questions.user_id')
            .where('users.suspension_reason', 'is not', null)
            .where((suspended) =>
              suspended.or([
                suspended('users.suspended_until', 'is', null),
                suspended('users.suspended_until', '>', new Date().toISOString()),
              ]),
            ),
        ),
      ),
    )
    .orderBy(sql`vote_count + like_count`, 'desc')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  try {
    await db
      .insertInto('questions_of_the_day')
      .values({ day, question_id: best?.id ?? null })
      .onConflict((conflict) => conflict.column('day').doNothing())
      .execute();
  } catch (error) {
    // A database that cannot write now (its disk full) must not stop the feed, which only reads:
    // the choice is shown unstored, and stored by a later read.
    if (isDatabaseUnavailable(error)) return { questionId: best?.id ?? null, stored: false };
    throw error;
  }
  const chosen = await db
    .selectFrom('questions_of_the_day')
    .select('question_id')
    .where('day', '=', day)
    .executeTakeFirstOrThrow();
  return { questionId: chosen.question_id, stored: true };
}

/**
 * Today's question, read on every feed: once chosen and stored a day's question never changes,
 * so each server keeps the day's choice once it has read it.
 */
export function questionOfTheDayFinder(db: Db): () => Promise<number | null> {
  let known: { endsAt: number; questionId: number | null } | null = null;
  return async () => {
    if (known === null || Date.now() >= known.endsAt) {
      const day = utcDay();
      const { questionId, stored } = await questionOfDay(db, day);
      if (!stored) return questionId;
      known = { endsAt: Date.parse(`${day}T00:00:00Z`) + DAY_MS, questionId };
    }
    return known.questionId;
  };
}
