import type { QuestionRow } from '../../db/schema.js';
import { questionToExplore, type Reader } from '../../views/pipeline.js';
import type { CardRead } from '../../views/question-cards.js';
import type { QuestionKind } from '../../views/results.js';
import type { ViewerState } from '../../views/viewer-states.js';

/** What breakdown and relate read of a question: from its card kept in memory. */
export interface ExploredQuestion extends Pick<QuestionRow, 'id' | 'title' | 'vote_count' | 'votes_removed'> {
  authorId: number;
  kind: QuestionKind;
  /** The choices' labels in key order (multiple choice; none otherwise). */
  labels: string[];
  /** The year (UTC) the question was asked: the year its voters' ages are reached in. */
  year: number;
  /** Everyone's votes per answer, as the card counts them. */
  votes: ReadonlyMap<number, number>;
}

/** A question as insights read it, with the votes its card counts. */
export function exploredOf({ card, moving }: CardRead): ExploredQuestion {
  const { fixed } = card;
  return {
    id: card.id,
    title: fixed.title,
    vote_count: moving.voteCount,
    votes_removed: moving.votesRemoved,
    authorId: card.authorId,
    kind: card.kind,
    labels: Array.isArray(fixed.choices) ? fixed.choices.map((choice) => choice.value) : [],
    year: new Date(fixed.published_at).getUTCFullYear(),
    votes: moving.votesByChoice,
  };
}

/** A question whose voters the viewer may explore (breakdown, related questions): 404 and 403 as the rules say. */
export async function exploredQuestion(
  reader: Reader & { viewer: ViewerState },
  questionId: number,
): Promise<ExploredQuestion> {
  return exploredOf(await questionToExplore(reader, questionId));
}
