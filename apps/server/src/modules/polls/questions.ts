import type { QuestionType } from '@pollscope/contract';
import { RATING_SCALE, createQuestionBodySchema } from '@pollscope/contract';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/index.js';
import { isUniqueViolation } from '../../db/dialect.js';
import type { QuestionRow, UserRow } from '../../db/schema.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { questionKind } from '../../views/questions.js';
import { countActivity } from '../site/activity.js';
import { isBlockedEitherWay } from '../social/blocks.js';

type NewQuestionInput = z.output<typeof createQuestionBodySchema>;

export async function createQuestion(trx: Db, authorId: number, input: NewQuestionInput): Promise<number> {
  if (input.category) {
    const category = await trx.selectFrom('categories').select('id').where('id', '=', input.category).executeTakeFirst();
    if (!category) throw new BadRequestError('Unknown category', { category: 'Pick a category from the list' });
  }
  const range = rangeOf(input.type, input.choices);
  const { id } = await trx
    .insertInto('questions')
    .values({
      user_id: authorId,
      type: input.type,
      title: input.question,
      category_id: input.category ?? null,
      choice_labels: input.type === 'MC' ? JSON.stringify(input.choices) : null,
      range_min: range?.min ?? null,
      range_max: range?.max ?? null,
      published_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (input.tags.length > 0) {
    await trx.insertInto('question_tags').values(input.tags.map((tag) => ({ question_id: id, tag: tag.toLowerCase() }))).execute();
  }
  await trx.updateTable('users').set({ question_count: sql`question_count + 1` }).where('id', '=', authorId).execute();
  await countActivity(trx, 'questions');
  return id;
}

function rangeOf(type: QuestionType, choices: string[]): { min: number; max: number } | null {
  if (type === 'RS') return RATING_SCALE;
  if (type === 'N') return { min: Number(choices[0]), max: Number(choices[1]) };
  return null;
}

/** The question a viewer may act on: it exists and its author and the viewer have not blocked each other. */
export async function questionForAction(db: Db, viewerId: number, questionId: number): Promise<QuestionRow> {
  const question = await db.selectFrom('questions').selectAll().where('id', '=', questionId).executeTakeFirst();
  if (!question) throw new NotFoundError('No such question');
  if (question.user_id !== viewerId && (await isBlockedEitherWay(db, viewerId, question.user_id))) {
    throw new ForbiddenError('You cannot act on this question');
  }
  return question;
}

/** Refuses a choice the question does not offer, naming the request's `field` that holds it. */
export function checkChoice(question: QuestionRow, choice: number, field = 'choice'): void {
  const kind = questionKind(question);
  if (kind.type === 'MC') {
    if (!kind.keys.includes(choice)) throw new BadRequestError('Pick one of the choices', { [field]: `Use a key from 1 to ${kind.keys.length}` });
    return;
  }
  if (kind.type === 'RS' && !Number.isInteger(choice)) throw new BadRequestError('A rating is a whole number', { [field]: 'Use a whole number' });
  if (choice < kind.min || choice > kind.max) {
    throw new BadRequestError(`Answer between ${kind.min} and ${kind.max}`, { [field]: `Use a number from ${kind.min} to ${kind.max}` });
  }
}

export type Voter = Pick<UserRow, 'id' | 'gender' | 'birth_year' | 'country_id'>;

/**
 * Records one vote and, in the same transaction, every tally that reads it: per choice, per
 * voter group and country (for breakdown), the question's and the voter's counts and the day's
 * activity. A second vote by the same user fails on the unique index, and the transaction it
 * throws out of changes nothing.
 */
export async function recordVote(trx: Db, question: Pick<QuestionRow, 'id'>, voter: Voter, choice: number): Promise<void> {
  // Counting the vote first locks the question's row, so each vote's place in its question's
  // order (seq) is handed out in the order the votes commit: relate reads the votes after a
  // place it has counted up to, and must not miss one committed late.
  const { vote_count: seq } = await trx
    .updateTable('questions')
    .set({ vote_count: sql`vote_count + 1` })
    .where('id', '=', question.id)
    .returning('vote_count')
    .executeTakeFirstOrThrow();
  try {
    await trx
      .insertInto('votes')
      .values({
        question_id: question.id,
        user_id: voter.id,
        choice,
        created_at: new Date().toISOString(),
        seq,
        gender: voter.gender,
        birth_year: voter.birth_year,
        country_id: voter.country_id,
      })
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConflictError('You already answered this question');
    throw error;
  }
  // The stored row's count is named with its table: in PostgreSQL a bare `count` could also be
  // the proposed row's (excluded.count).
  await trx
    .insertInto('vote_tallies')
    .values({ question_id: question.id, choice, count: 1 })
    .onConflict((conflict) => conflict.columns(['question_id', 'choice']).doUpdateSet((eb) => ({ count: eb('vote_tallies.count', '+', 1) })))
    .execute();
  await trx
    .insertInto('vote_segments')
    .values({ question_id: question.id, country_id: voter.country_id, gender: voter.gender, birth_year: voter.birth_year, choice, count: 1 })
    .onConflict((conflict) =>
      conflict.columns(['question_id', 'country_id', 'gender', 'birth_year', 'choice']).doUpdateSet((eb) => ({ count: eb('vote_segments.count', '+', 1) })),
    )
    .execute();
  await trx.updateTable('users').set({ answer_count: sql`answer_count + 1` }).where('id', '=', voter.id).execute();
  await countActivity(trx, 'answers');
}

export async function voterOf(db: Db, userId: number): Promise<Voter> {
  return db.selectFrom('users').select(['id', 'gender', 'birth_year', 'country_id']).where('id', '=', userId).executeTakeFirstOrThrow();
}

/** Likes or unlikes; the counts move only when the state changes, so repeating a call is harmless. */
export async function setLiked(trx: Db, userId: number, questionId: number, liked: boolean): Promise<void> {
  const changed = liked
    ? await trx
        .insertInto('likes')
        .values({ question_id: questionId, user_id: userId, created_at: new Date().toISOString() })
        .onConflict((conflict) => conflict.columns(['question_id', 'user_id']).doNothing())
        .executeTakeFirst()
        .then((result) => Number(result.numInsertedOrUpdatedRows ?? 0n) > 0)
    : await trx
        .deleteFrom('likes')
        .where('question_id', '=', questionId)
        .where('user_id', '=', userId)
        .executeTakeFirst()
        .then((result) => Number(result.numDeletedRows) > 0);
  if (!changed) return;
  const delta = liked ? 1 : -1;
  await trx.updateTable('questions').set({ like_count: sql`like_count + ${delta}` }).where('id', '=', questionId).execute();
  await trx.updateTable('users').set({ like_count: sql`like_count + ${delta}` }).where('id', '=', userId).execute();
  await countActivity(trx, 'likes', delta);
}

export async function setPassed(db: Db, userId: number, questionId: number, passed: boolean): Promise<void> {
  if (passed) {
    await db
      .insertInto('passes')
      .values({ user_id: userId, question_id: questionId })
      .onConflict((conflict) => conflict.columns(['user_id', 'question_id']).doNothing())
      .execute();
  } else {
    await db.deleteFrom('passes').where('user_id', '=', userId).where('question_id', '=', questionId).execute();
  }
}
