import { sql } from 'kysely';
import { compiledOnce } from '../../db/compiled-query.js';
import type { Db } from '../../db/index.js';
import { utcDay } from '../site/activity.js';

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
 * Today's question (chosen by the first call of the day), read on every feed: its lookup is
 * compiled once. Whether a viewer may see it is theirs to check.
 */
export function questionOfTheDayFinder(db: Db): () => Promise<number | null> {
  const storedChoice = compiledOnce(db, ['day'] as [string], (db, day) => db.selectFrom('questions_of_the_day').select('question_id').where('day', '=', day));
  return async () => {
    const day = utcDay();
    const [stored] = await storedChoice(db, day);
    return stored ? stored.question_id : questionOfDay(db, day);
  };
}
