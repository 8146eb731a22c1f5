import type { LiveResult, Result } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import { tallies } from '../../views/question-cards.js';
import { buildResult, questionKind } from '../../views/results.js';

/** A question's result and like count as everyone with the right to see them sees them. */
export interface QuestionState {
  id: number;
  authorId: number;
  result: Result;
  likeCount: number;
}

/** The current state of a question, read in two queries however many people watch it; null once it is gone. */
export async function questionState(db: Db, questionId: number): Promise<QuestionState | null> {
  const [question, votesByQuestion] = await Promise.all([
    db
      .selectFrom('questions')
      .select(['id', 'user_id', 'type', 'choice_labels', 'range_min', 'range_max', 'like_count'])
      .where('id', '=', questionId)
      .executeTakeFirst(),
    tallies(db, [questionId]),
  ]);
  if (!question) return null;
  return {
    id: question.id,
    authorId: question.user_id,
    result: buildResult(questionKind(question), votesByQuestion.get(question.id) ?? new Map()),
    likeCount: question.like_count,
  };
}

/** Whether a viewer sees a question's result: its author does, and so does everyone who answered it. */
export async function seesResult(db: Db, viewerId: number, question: { id: number; authorId: number }): Promise<boolean> {
  if (question.authorId === viewerId) return true;
  const vote = await db.selectFrom('votes').select('id').where('question_id', '=', question.id).where('user_id', '=', viewerId).executeTakeFirst();
  return vote !== undefined;
}

/** The state as one viewer may see it. */
export function liveResultFor(state: QuestionState, seesResult: boolean): LiveResult {
  return { id: state.id, result: seesResult ? state.result : null, like_count: state.likeCount };
}
