import type { Db } from '../../db/index.js';
import type { QuestionRow } from '../../db/schema.js';
import { ForbiddenError } from '../../errors.js';
import type { QuestionCards } from '../../views/question-cards.js';
import type { ViewerState } from '../../views/viewer-states.js';
import { cardForAction } from '../polls/questions.js';

/** What breakdown and relate read of a question. */
export type ExploredQuestion = Pick<QuestionRow, 'id' | 'user_id' | 'type' | 'title' | 'choice_labels' | 'range_min' | 'range_max' | 'vote_count'>;

/**
 * A question the viewer may act on (404, 403 as for answering), as insights read it: from its
 * card kept in memory, with the votes the card counts, the viewer's own among them.
 */
export async function questionInReach(db: Db, cards: QuestionCards, viewer: ViewerState, questionId: number): Promise<ExploredQuestion> {
  const { card, moving } = await cardForAction(db, cards, viewer, questionId);
  const { fixed, kind } = card;
  return {
    id: card.id,
    user_id: card.authorId,
    type: fixed.type,
    title: fixed.title,
    choice_labels: Array.isArray(fixed.choices) ? JSON.stringify(fixed.choices.map((choice) => choice.value)) : null,
    range_min: kind.type === 'MC' ? null : kind.min,
    range_max: kind.type === 'MC' ? null : kind.max,
    vote_count: moving.voteCount,
  };
}

/**
 * A question whose voters the viewer may explore (breakdown, related questions): it exists (else
 * 404), no block stands between the viewer and its author, and the viewer answered it or asked
 * it (else 403), like its result.
 */
export async function questionToExplore(db: Db, cards: QuestionCards, viewer: ViewerState, questionId: number): Promise<ExploredQuestion> {
  const question = await questionInReach(db, cards, viewer, questionId);
  if (question.user_id !== viewer.userId && !viewer.votes.has(question.id)) throw new ForbiddenError('Answer this question to see how others answered it');
  return question;
}
