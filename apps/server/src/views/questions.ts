import type { Question } from '@pollscope/contract';
import type { FastifyReply } from 'fastify';
import type { ModerationMarks } from './moderation-marks.js';
import { movingJson, resultOf, type CardRead } from './question-cards.js';
import { isOwner, moderationShown, seesResult } from './rules.js';
import type { ViewerState } from './viewer-states.js';

/**
 * The contract's Question of each card read, as `viewer` sees it (null: a visitor), in the order
 * given, with what moderation decided when the viewer is its author. A caller that shows results
 * of its own (breakdown) sets `withResults: false`.
 */
export function present(
  moderation: ModerationMarks,
  viewer: ViewerState | null,
  reads: readonly CardRead[],
  { withResults = true } = {},
): Question[] {
  const views: Question[] = [];
  for (const read of reads) {
    const { card, moving } = read;
    const { fixed } = card;
    const ownChoice = viewer?.votes.get(card.id)?.choice;
    // Written out field by field: spreading cards of many shapes is several times slower. In the
    // order `responseJson` writes them from the card, so that JSON.stringify writes the same.
    const view: ViewFromCard = {
      id: fixed.id,
      qid: fixed.qid,
      type: fixed.type,
      title: fixed.title,
      language: fixed.language,
      category: fixed.category,
      choices: fixed.choices,
      tags: fixed.tags,
      published_at: fixed.published_at,
      user: fixed.user,
      result: withResults && seesResult(viewer, card) ? resultOf(card, moving) : null,
      user_name: moving.authorName,
      like_count: moving.likeCount,
      vote_count: moving.voteCount,
      answer: ownChoice === undefined ? null : { choice: ownChoice },
      liked: viewer?.likes.has(card.id) ?? false,
      passed: viewer?.passes.has(card.id) ?? false,
      owner: isOwner(viewer, card),
      [cardOfView]: read,
    };
    const withheld = moderationShown(moderation, viewer, card);
    if (withheld) view.moderation = withheld;
    views.push(view);
  }
  return views;
}

/**
 * The card a view was made from, under a key JSON.stringify skips: a page of questions is most of
 * what the API sends, and writing it from the JSON its cards keep costs a fraction of
 * JSON.stringify. A view changed since (breakdown spreads it with a result of its own) no longer
 * matches its card, and is written by JSON.stringify.
 */
const cardOfView = Symbol('card of view');
type ViewFromCard = Question & { [cardOfView]?: CardRead };

function matchesCard(view: Question, { card, moving }: CardRead): boolean {
  const { fixed } = card;
  return (
    view.id === fixed.id &&
    view.qid === fixed.qid &&
    view.type === fixed.type &&
    view.title === fixed.title &&
    view.language === fixed.language &&
    view.category === fixed.category &&
    view.choices === fixed.choices &&
    view.tags === fixed.tags &&
    view.published_at === fixed.published_at &&
    view.user === fixed.user &&
    view.user_name === moving.authorName &&
    view.like_count === moving.likeCount &&
    view.vote_count === moving.voteCount &&
    (view.result === null || view.result === moving.result) &&
    (view.answer === null || Object.keys(view.answer).length === 1)
  );
}

/** How deep in a response question views are looked for: `{ related: [{ question }] }`. */
const VIEW_DEPTH = 3;

/** Sends a response written as JSON already (`responseJson`), as it is. */
export function sendJson(reply: FastifyReply, json: Buffer): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json);
}

/** A response as JSON, the question views in it written from their cards' JSON. */
export function responseJson(value: unknown, depth = 0): string {
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const source = (value as ViewFromCard)[cardOfView];
  if (source !== undefined) {
    const view = value as Question;
    if (!matchesCard(view, source)) return JSON.stringify(view);
    const answer = view.answer === null ? 'null' : `{"choice":${JSON.stringify(view.answer.choice)}}`;
    const moderation = view.moderation === undefined ? '' : `,"moderation":${JSON.stringify(view.moderation)}`;
    return `${source.card.fixedJson}${movingJson(source.card, source.moving, view.result !== null)},"answer":${answer},"liked":${view.liked},"passed":${view.passed},"owner":${view.owner}${moderation}}`;
  }
  if (depth === VIEW_DEPTH) return JSON.stringify(value);
  if (Array.isArray(value))
    return `[${value.map((item) => (item === undefined ? 'null' : responseJson(item, depth + 1))).join(',')}]`;
  if (Object.getPrototypeOf(value) !== Object.prototype) return JSON.stringify(value);
  const fields: string[] = [];
  for (const [key, field] of Object.entries(value)) {
    if (field !== undefined && typeof field !== 'function')
      fields.push(`${JSON.stringify(key)}:${responseJson(field, depth + 1)}`);
  }
  return `{${fields.join(',')}}`;
}
