import type { Question } from '@pollscope/contract';
import type { Db } from '../db/index.js';
import { resultOf, type QuestionCards } from './question-cards.js';
import type { ViewerState } from './viewer-states.js';

/**
 * The contract's Question for each id, as `viewer` sees it (null: a visitor), in the order given;
 * unknown ids are left out. The questions come from the cards kept in memory, the viewer's own
 * answer, like and hiding from their state: a page costs no query while neither changed. A
 * caller that shows results of its own (breakdown) sets `withResults: false`.
 */
export async function questionViews(
  db: Db,
  cards: QuestionCards,
  viewer: ViewerState | null,
  ids: readonly number[],
  { withResults = true } = {},
): Promise<Question[]> {
  if (ids.length === 0) return [];
  // A viewer's own vote must be in the result they see, even one cast through another instance.
  const ownVotes = new Map<number, number>();
  for (const id of ids) {
    const vote = viewer?.votes.get(id);
    if (vote) ownVotes.set(id, vote.seq);
  }
  const reads = await cards.read(db, ids, ownVotes);
  const views: Question[] = [];
  for (const id of ids) {
    const read = reads.get(id);
    if (!read) continue;
    const { card, moving } = read;
    const { fixed } = card;
    const ownChoice = viewer?.votes.get(id)?.choice;
    const owner = viewer !== null && card.authorId === viewer.userId;
    // Nobody sees a result before voting, except the question's author.
    const seesResult = withResults && (ownChoice !== undefined || owner);
    // Written out field by field: spreading cards of many shapes is several times slower.
    views.push({
      id: fixed.id,
      qid: fixed.qid,
      type: fixed.type,
      title: fixed.title,
      category: fixed.category,
      choices: fixed.choices,
      result: seesResult ? resultOf(card, moving) : null,
      answer: ownChoice === undefined ? null : { choice: ownChoice },
      tags: fixed.tags,
      published_at: fixed.published_at,
      user: fixed.user,
      user_name: moving.authorName,
      like_count: moving.likeCount,
      liked: viewer?.likes.has(id) ?? false,
      passed: viewer?.passes.has(id) ?? false,
      owner,
    });
  }
  return views;
}
