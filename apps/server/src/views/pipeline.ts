import type { PageQuery, Question } from '@pollscope/contract';
import type { Db } from '../db/index.js';
import { decodeCursor, pageOf } from '../db/pagination.js';
import type { ModerationMarks } from './moderation-marks.js';
import type { CardRead, QuestionCards } from './question-cards.js';
import { present } from './questions.js';
import { isListed, mayAct, mayExplore } from './rules.js';
import type { ViewerState } from './viewer-states.js';

/**
 * Every read of questions goes the same way: skeleton (which ids, from a list's query or a list
 * kept in memory) → hydrate (the cards kept in memory and the viewer's own state) → rules
 * (`rules.ts`: hidden, blocked, who sees a result, who may act or explore) → present (the
 * contract's Question).
 */
export interface Reader {
  db: Db;
  cards: QuestionCards;
  /** What moderators withheld: every read respects it. */
  moderation: ModerationMarks;
  /** Null for a visitor. */
  viewer: ViewerState | null;
}

/** A question a list may show, and the key its place in the list is named by in a cursor. */
export interface Candidate {
  id: number;
  key: number;
}

/** Up to `count` candidates of a list, newest first, below the key `before`; fewer only at its end. */
export type Skeleton = (before: number | null, count: number) => Promise<Candidate[]>;

/** Candidates keyed by their own question id (lists ordered by question). */
export function byQuestionId(ids: readonly number[]): Candidate[] {
  return ids.map((id) => ({ id, key: id }));
}

/**
 * The cards of `ids` that exist, in the order given. A viewer's own vote must be in the result
 * they see, even one cast through another instance: the card read counts it.
 */
export async function hydrate({ db, cards, viewer }: Reader, ids: readonly number[]): Promise<CardRead[]> {
  if (ids.length === 0) return [];
  let ownVoteSeqs: Map<number, number> | undefined;
  if (viewer) {
    for (const id of ids) {
      const vote = viewer.votes.get(id);
      if (vote) (ownVoteSeqs ??= new Map()).set(id, vote.seq);
    }
  }
  const reads = await cards.read(db, ids, ownVoteSeqs);
  return ids.flatMap((id) => reads.get(id) ?? []);
}

/** The questions of `ids` as the reader's viewer sees them, those that exist, in the order given. */
export async function questionViews(
  reader: Reader,
  ids: readonly number[],
  options?: { withResults?: boolean },
): Promise<Question[]> {
  return present(reader.moderation, reader.viewer, await hydrate(reader, ids), options);
}

/** The questions of `ids` a list may show the viewer, in the order given. */
export async function listedViews(reader: Reader, ids: readonly number[]): Promise<Question[]> {
  return present(
    reader.moderation,
    reader.viewer,
    (await hydrate(reader, ids)).filter((read) => isListed(reader.moderation, reader.viewer, read.card)),
  );
}

export interface QuestionsPage {
  questions: Question[];
  next: string | null;
  /** The cards shown, as read: what a page kept as JSON depends on. */
  reads: CardRead[];
}

/**
 * A page of a list: candidates from its skeleton until `limit + 1` pass the rules (the one more
 * tells whether a next page exists) or the list ends. `maxKey` is the largest key the list gives,
 * for a list whose keys are more than ids (search).
 */
export async function listPage(
  reader: Reader,
  skeleton: Skeleton,
  page: PageQuery,
  maxKey?: number,
): Promise<QuestionsPage> {
  let before = decodeCursor(page.cursor, maxKey);
  const shown: { key: number; read: CardRead }[] = [];
  for (;;) {
    const wanted = page.limit + 1 - shown.length;
    const candidates = await skeleton(before, wanted);
    const reads = new Map(
      (
        await hydrate(
          reader,
          candidates.map((candidate) => candidate.id),
        )
      ).map((read) => [read.card.id, read]),
    );
    for (const { id, key } of candidates) {
      const read = reads.get(id);
      if (read && isListed(reader.moderation, reader.viewer, read.card)) shown.push({ key, read });
    }
    if (shown.length > page.limit || candidates.length < wanted) break;
    before = candidates[candidates.length - 1].key;
  }
  const { items, next } = pageOf(shown, page.limit);
  const reads = items.map((item) => item.read);
  return { questions: present(reader.moderation, reader.viewer, reads), next, reads };
}

/** The card of a question the viewer may act on (404, 403), counting their own vote. */
export async function questionToAct(reader: Reader & { viewer: ViewerState }, id: number): Promise<CardRead> {
  return mayAct(reader.moderation, reader.viewer, (await hydrate(reader, [id]))[0]);
}

/** The card of a question whose voters the viewer may explore (404, 403), counting their own vote. */
export async function questionToExplore(reader: Reader & { viewer: ViewerState }, id: number): Promise<CardRead> {
  return mayExplore(reader.moderation, reader.viewer, (await hydrate(reader, [id]))[0]);
}
