import type { Db } from '../../db/index.js';
import type { QuestionRow } from '../../db/schema.js';
import { ForbiddenError } from '../../errors.js';
import type { CardRead, QuestionCards } from '../../views/question-cards.js';
import type { QuestionKind } from '../../views/results.js';
import type { ViewerState } from '../../views/viewer-states.js';
import { cardForAction } from '../polls/index.js';

/** What breakdown and relate read of a question: from its card kept in memory. */
export interface ExploredQuestion extends Pick<QuestionRow, 'id' | 'title' | 'vote_count'> {
  authorId: number;
  kind: QuestionKind;
  /** The choices' labels in key order (multiple choice; none otherwise). */
  labels: string[];
}

/** A question as insights read it, with the votes its card counts. */
export function exploredOf({ card, moving }: CardRead): ExploredQuestion {
  const { fixed } = card;
  return {
    id: card.id,
    title: fixed.title,
    vote_count: moving.voteCount,
    authorId: card.authorId,
    kind: card.kind,
    labels: Array.isArray(fixed.choices) ? fixed.choices.map((choice) => choice.value) : [],
  };
}

/** A question the viewer may act on (404, 403 as for answering), its card counting the viewer's own vote. */
export async function questionInReach(db: Db, cards: QuestionCards, viewer: ViewerState, questionId: number): Promise<ExploredQuestion> {
  return exploredOf(await cardForAction(db, cards, viewer, questionId));
}

/**
 * A question whose voters the viewer may explore (breakdown, related questions): it exists (else
 * 404), no block stands between the viewer and its author, and the viewer answered it or asked
 * it (else 403), like its result.
 */
export async function questionToExplore(db: Db, cards: QuestionCards, viewer: ViewerState, questionId: number): Promise<ExploredQuestion> {
  const question = await questionInReach(db, cards, viewer, questionId);
  if (question.authorId !== viewer.userId && !viewer.votes.has(question.id)) throw new ForbiddenError('Answer this question to see how others answered it');
  return question;
}
