import type { QuestionModeration } from '@pollscope/contract';
import { ForbiddenError, NotFoundError } from '../errors.js';
import type { ModerationMarks } from './moderation-marks.js';
import type { CardRead, QuestionCard } from './question-cards.js';
import type { ViewerState } from './viewer-states.js';

/**
 * Who may see and do what with a question, and whose profile others may see: the one place these
 * rules live. Every list, the feed, the question page, related questions, the day's question, the
 * share page and every action ask here.
 */

/** What the rules of a question's visibility read of it: which it is and who asked it. */
type Asked = Pick<QuestionCard, 'id' | 'authorId'>;

export function isOwner(viewer: Pick<ViewerState, 'userId'> | null, card: Asked): boolean {
  return viewer !== null && card.authorId === viewer.userId;
}

/** A block either way stands between the viewer and the question's author. */
export function isBlocked(viewer: ViewerState | null, card: QuestionCard): boolean {
  return viewer !== null && !isOwner(viewer, card) && viewer.blocked.has(card.authorId);
}

/**
 * Moderation keeps the question from everyone but its author: removed, hidden by reports, or asked by someone
 * suspended.
 */
export function isWithheld(moderation: ModerationMarks, card: Asked): boolean {
  return moderation.questionMark(card.id) !== undefined || moderation.isSuspended(card.authorId);
}

/**
 * Whether the viewer (null: a visitor) may see the question at all: its author always, anyone else unless moderation
 * withholds it.
 */
export function isVisible(
  moderation: ModerationMarks,
  viewer: Pick<ViewerState, 'userId'> | null,
  card: Asked,
): boolean {
  return isOwner(viewer, card) || !isWithheld(moderation, card);
}

/**
 * Whether the question is in a language the viewer's lists show (`question_languages`, CONTRACT.md §7): any for a
 * visitor or a person who chose none; their own questions whatever it is.
 */
export function isInViewersLanguages(viewer: ViewerState | null, card: QuestionCard): boolean {
  return (
    viewer === null ||
    viewer.questionLanguages === null ||
    viewer.questionLanguages.has(card.fixed.language) ||
    isOwner(viewer, card)
  );
}

/**
 * Whether a list shows the question (every list, the feed, search, trending, related questions): visible, not hidden
 * (passed) by the viewer, its author not blocked either way, in a language the viewer reads. A question's own page
 * asks `mayAct` instead, which shows it in any language.
 */
export function isListed(moderation: ModerationMarks, viewer: ViewerState | null, card: QuestionCard): boolean {
  return (
    isVisible(moderation, viewer, card) &&
    (viewer === null || (!viewer.passes.has(card.id) && !isBlocked(viewer, card) && isInViewersLanguages(viewer, card)))
  );
}

/**
 * What its author is told of a question moderation withholds (CONTRACT §5); nothing for anyone else, nor for a question
 * nobody acted on.
 */
export function moderationShown(
  moderation: ModerationMarks,
  viewer: ViewerState | null,
  card: QuestionCard,
): QuestionModeration | undefined {
  return isOwner(viewer, card) ? moderation.questionMark(card.id) : undefined;
}

/** Nobody sees a result before answering, except the question's author. */
export function seesResult(viewer: ViewerState | null, card: QuestionCard): boolean {
  return viewer !== null && (isOwner(viewer, card) || viewer.votes.has(card.id));
}

/**
 * A question the viewer may open and act on (answer, like, hide, watch, report): it exists and is visible to them (404)
 * and no block stands (403).
 */
export function mayAct(moderation: ModerationMarks, viewer: ViewerState, read: CardRead | undefined): CardRead {
  if (!read || !isVisible(moderation, viewer, read.card)) throw new NotFoundError('errors.noSuchQuestion');
  if (isBlocked(viewer, read.card)) throw new ForbiddenError('errors.cannotActOnQuestion');
  return read;
}

/**
 * A question whose voters the viewer may explore (breakdown, relate, related questions): one they may act on and see
 * the result of (403).
 */
export function mayExplore(moderation: ModerationMarks, viewer: ViewerState, read: CardRead | undefined): CardRead {
  const reachable = mayAct(moderation, viewer, read);
  if (!seesResult(viewer, reachable.card)) throw new ForbiddenError('errors.answerToSeeResults');
  return reachable;
}

/**
 * Two questions the viewer may relate (relate, its CSV): both answered by them (403), a relate shows the voters of
 * both.
 */
export function mayRelate(viewer: ViewerState, first: QuestionCard, second: QuestionCard): void {
  if (!viewer.votes.has(first.id) || !viewer.votes.has(second.id)) throw new ForbiddenError('errors.answerBoth');
}

/** Whether others find the person (people search, suggestions, connections): not while they are suspended. */
export function isProfileShown(moderation: ModerationMarks, viewerId: number, userId: number): boolean {
  return viewerId === userId || !moderation.isSuspended(userId);
}

/** A person's profile (their stats, their lists): a suspended person's is 404 to everyone else. */
export function mayViewProfile(moderation: ModerationMarks, viewerId: number, userId: number): void {
  if (!isProfileShown(moderation, viewerId, userId)) throw new NotFoundError('errors.noSuchUser');
}
