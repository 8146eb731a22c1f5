import type { Db } from '../../db/index.js';
import type { QuestionRow } from '../../db/schema.js';
import { ForbiddenError } from '../../errors.js';
import { questionForAction } from '../polls/questions.js';

export async function hasAnswered(db: Db, viewerId: number, questionId: number): Promise<boolean> {
  const vote = await db.selectFrom('votes').select('id').where('question_id', '=', questionId).where('user_id', '=', viewerId).executeTakeFirst();
  return vote !== undefined;
}

/**
 * A question whose voters the viewer may explore (breakdown, related questions): it exists (else
 * 404), no block stands between the viewer and its author, and the viewer answered it or asked
 * it (else 403), like its result.
 */
export async function questionToExplore(db: Db, viewerId: number, questionId: number): Promise<QuestionRow> {
  const question = await questionForAction(db, viewerId, questionId);
  if (question.user_id !== viewerId && !(await hasAnswered(db, viewerId, questionId))) {
    throw new ForbiddenError('Answer this question to see how others answered it');
  }
  return question;
}
