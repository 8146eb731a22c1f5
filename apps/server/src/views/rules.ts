import { ForbiddenError, NotFoundError } from '../errors.js';
import type { CardRead, QuestionCard } from './question-cards.js';
import type { ViewerState } from './viewer-states.js';

/**
 * Who may see and do what with a question: the one place these rules live. Every list, the feed,
 * the question page, related questions, the day's question and every action ask here.
 */

export function isOwner(viewer: ViewerState | null, card: QuestionCard): boolean {
  return viewer !== null && card.authorId === viewer.userId;
}

/** A block either way stands between the viewer and the question's author. */
export function isBlocked(viewer: ViewerState | null, card: QuestionCard): boolean {
  return viewer !== null && !isOwner(viewer, card) && viewer.blocked.has(card.authorId);
}

/** Whether a list shows the question: not hidden (passed) by the viewer, its author not blocked either way. */
export function isListed(viewer: ViewerState | null, card: QuestionCard): boolean {
  return viewer === null || (!viewer.passes.has(card.id) && !isBlocked(viewer, card));
}

/** Nobody sees a result before answering, except the question's author. */
export function seesResult(viewer: ViewerState | null, card: QuestionCard): boolean {
  return viewer !== null && (isOwner(viewer, card) || viewer.votes.has(card.id));
}

/** A question the viewer may open and act on (answer, like, hide, watch): it exists (404) and no block stands (403). */
export function mayAct(viewer: ViewerState, read: CardRead | undefined): CardRead {
  if (!read) throw new NotFoundError('No such question');
  if (isBlocked(viewer, read.card)) throw new ForbiddenError('You cannot act on this question');
  return read;
}

/** A question whose voters the viewer may explore (breakdown, relate, related questions): one they may act on and see the result of (403). */
export function mayExplore(viewer: ViewerState, read: CardRead | undefined): CardRead {
  const reachable = mayAct(viewer, read);
  if (!seesResult(viewer, reachable.card)) throw new ForbiddenError('Answer this question to see how others answered it');
  return reachable;
}

/** Two questions the viewer may relate (relate, its CSV): both answered by them (403), a relate shows the voters of both. */
export function mayRelate(viewer: ViewerState, first: QuestionCard, second: QuestionCard): void {
  if (!viewer.votes.has(first.id) || !viewer.votes.has(second.id)) throw new ForbiddenError('Answer both questions to relate them');
}
