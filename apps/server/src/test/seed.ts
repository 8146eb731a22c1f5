import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index.js';
import { countWithoutTelling } from '../seed/counted.js';
import { recordVotes, setLikes, type NewLike, type NewVote } from '../modules/polls/questions.js';
import type { Voter } from '../views/viewer-states.js';
import { searchName } from '../lib/search-text.js';
import { createSession } from '../modules/auth/sessions.js';
import { countActivity } from '../modules/site/index.js';
import { client, type TestContext, type TestUser } from './helper.js';

/** Rows written per statement or transaction: far below either database's limit on parameters. */
const ROWS_PER_WRITE = 1_000;

/**
 * `count` people written straight into the database, who cannot sign in: the voters of a question
 * of thousands of votes, made in a second where registering each would take minutes.
 */
export async function insertPeople(db: Db, count: number, group: Omit<Voter, 'id'>): Promise<Voter[]> {
  const batch = randomBytes(4).toString('hex');
  const people: Voter[] = [];
  for (let start = 0; start < count; start += ROWS_PER_WRITE) {
    const rows = Array.from({ length: Math.min(ROWS_PER_WRITE, count - start) }, (_, index) => ({
      email: `seeded-${batch}-${start + index}@example.com`,
      password_hash: '!',
      first_name: 'Seeded',
      search_name: searchName('Seeded'),
      birthdate: `${group.birth_year}-01-01`,
      birth_year: group.birth_year,
      gender: group.gender,
      country_id: group.country_id,
      created_at: new Date().toISOString(),
    }));
    const ids = await db.insertInto('users').values(rows).returning('id').execute();
    for (const { id } of ids) people.push({ id, ...group });
  }
  return people;
}

/**
 * One person written with the columns every release had, counted on the site chart as registering
 * counts them, and signed in: the app's registration today also writes columns of later migrations,
 * which a database of an earlier release lacks.
 */
export async function insertMember(ctx: TestContext, group: Omit<Voter, 'id'>): Promise<TestUser> {
  const { db } = ctx.database;
  const [person] = await insertPeople(db, 1, group);
  await countActivity(db, 'users');
  const token = await createSession(db, person.id);
  const { email } = await db.selectFrom('users').select('email').where('id', '=', person.id).executeTakeFirstOrThrow();
  return { id: person.id, token, email, api: client(ctx.app, token) };
}

/**
 * Votes recorded by the app's own `recordVotes`, a thousand per transaction, so that every tally
 * and count moves as with votes cast through the API; nobody is notified. What the app keeps in
 * memory is not told: seed before anything reads the questions.
 */
export async function castVotes(db: Db, votes: NewVote[]): Promise<void> {
  for (let start = 0; start < votes.length; start += ROWS_PER_WRITE) {
    await db.transaction().execute(async (trx) => {
      const made = await recordVotes(trx, votes.slice(start, start + ROWS_PER_WRITE));
      await countWithoutTelling(trx, made);
    });
  }
}

/** Likes written by the app's own `setLikes`, each counted as liking counts it; nobody is notified. */
export async function castLikes(db: Db, likes: NewLike[]): Promise<void> {
  await db.transaction().execute(async (trx) => countWithoutTelling(trx, await setLikes(trx, likes)));
}

/**
 * People written as `insertPeople` writes them, with the columns every release had, counted on the site chart as
 * registering counts them.
 */
export async function insertCountedPeople(db: Db, count: number, group: Omit<Voter, 'id'>): Promise<Voter[]> {
  const people = await insertPeople(db, count, group);
  await countActivity(db, 'users', count);
  return people;
}

/** A question written straight into the database, with the columns every release had, counted as asking counts it. */
export async function insertAskedQuestion(
  db: Db,
  authorId: number,
  question: Partial<{ type: 'MC' | 'RS'; title: string; choice_labels: string; range_min: number; range_max: number }>,
): Promise<number> {
  const { id } = await db
    .insertInto('questions')
    .values({
      user_id: authorId,
      type: 'MC',
      title: 'Which one?',
      category_id: null,
      choice_labels: null,
      range_min: null,
      range_max: null,
      published_at: new Date().toISOString(),
      ...question,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await countWithoutTelling(db, [{ kind: 'asked', questionId: id, authorId, categoryId: null, tags: [] }]);
  return id;
}

/**
 * `count` multiple-choice questions of `authorId` written straight into the database, for a voter of thousands of
 * answers.
 */
export async function insertQuestions(db: Db, authorId: number, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let start = 0; start < count; start += ROWS_PER_WRITE) {
    const rows = Array.from({ length: Math.min(ROWS_PER_WRITE, count - start) }, (_, index) => ({
      user_id: authorId,
      type: 'MC' as const,
      title: `Seeded question ${start + index}?`,
      category_id: null,
      choice_labels: JSON.stringify(['Yes', 'No']),
      range_min: null,
      range_max: null,
      published_at: new Date().toISOString(),
    }));
    for (const { id } of await db.insertInto('questions').values(rows).returning('id').execute()) ids.push(id);
  }
  await db
    .updateTable('users')
    .set((eb) => ({ question_count: eb('question_count', '+', count) }))
    .where('id', '=', authorId)
    .execute();
  return ids;
}
