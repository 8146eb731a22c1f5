import type { Db } from '../../db/index.js';
import { ForbiddenError } from '../../errors.js';
import { questionForAction, type QuestionInReach } from '../polls/questions.js';

/**
 * A question whose voters the viewer may explore (breakdown, related questions): it exists (else
 * 404), no block stands between the viewer and its author, and the viewer answered it or asked
 * it (else 403), like its result.
 */
export async function questionToExplore(db: Db, viewerId: number, questionId: number): Promise<QuestionInReach> {
  const question = await questionForAction(db, viewerId, questionId);
  if (question.user_id !== viewerId && !question.answered) throw new ForbiddenError('Answer this question to see how others answered it');
  return question;
}
