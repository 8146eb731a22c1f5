import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { utcDay } from '../site/index.js';

const DAY_MS = 24 * 3600 * 1000;

/**
 * The question of a UTC day: the most voted plus liked among those published in the 7 days
 * before it (ties: lowest id). Chosen once, by whichever request comes first, and stored, so it
 * stays the same all day on every server.
 */
async function questionOfDay(db: Db, day: string): Promise<number | null> {
  const stored = await db.selectFrom('questions_of_the_day').select('question_id').where('day', '=', day).executeTakeFirst();
  if (stored) return stored.question_id;
  const dayStart = Date.parse(`${day}T00:00:00Z`);
  const best = await db
    .selectFrom('questions')
    .select('id')
    .where('published_at', '>=', new Date(dayStart - 7 * DAY_MS).toISOString())
    .where('published_at', '<', new Date(dayStart).toISOString())
    .orderBy(sql`vote_count + like_count`, 'desc')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  await db
    .insertInto('questions_of_the_day')
    .values({ day, question_id: best?.id ?? null })
    .onConflict((conflict) => conflict.column('day').doNothing())
    .execute();
  const chosen = await db.selectFrom('questions_of_the_day').select('question_id').where('day', '=', day).executeTakeFirstOrThrow();
  return chosen.question_id;
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
      known = { endsAt: Date.parse(`${day}T00:00:00Z`) + DAY_MS, questionId: await questionOfDay(db, day) };
    }
    return known.questionId;
  };
}
