import type { Question, Result } from '@pollscope/contract';
import { sql } from 'kysely';
import { dialectOf, fromJsonArray, jsonArrayOf } from '../db/dialect.js';
import type { Db } from '../db/index.js';
import { Lookup } from '../db/lookups.js';
import { ClockCache, type CacheStats } from '../lib/clock-cache.js';
import { buildResult, choicesOf, questionKind, type QuestionKind } from './results.js';

/** What never changes once a question is asked, as the contract's Question has it. */
export type FixedPart = Pick<
  Question,
  'id' | 'qid' | 'type' | 'title' | 'language' | 'category' | 'choices' | 'tags' | 'published_at' | 'user'
>;

/** What votes, likes and the author's profile change. */
export interface MovingPart {
  voteCount: number;
  /** Votes deleted with their voters' accounts: the last vote counted has seq `voteCount + votesRemoved`. */
  votesRemoved: number;
  likeCount: number;
  authorName: string;
  votesByChoice: ReadonlyMap<number, number>;
  /** Built from `votesByChoice` when first shown. */
  result?: Result;
  /** JSON of the moving fields, with and without the result, when first written. */
  json?: { withResult?: string; withoutResult?: string };
}

export interface QuestionCard {
  readonly id: number;
  readonly authorId: number;
  readonly kind: QuestionKind;
  readonly fixed: FixedPart;
  /** `fixed` as JSON without its closing brace: a view's JSON continues it. */
  readonly fixedJson: string;
  /** Null once something changed it elsewhere: read again on next use. */
  moving: MovingPart | null;
  /** Moves with every change to `moving`, so a read that started before one does not overwrite it. */
  generation: number;
  /** The read of the current `moving`, shared by every page made from it. */
  lastRead?: CardRead;
}

export interface CardRead {
  card: QuestionCard;
  moving: MovingPart;
}

/**
 * Whether `read` still holds what is known of its question: every change replaces a kept card's
 * moving part, and a card that stops being kept is staled.
 */
export function isCurrent(read: CardRead): boolean {
  return read.card.moving === read.moving;
}

/** The card as it is now, one object for every reader of the same moving part: pages keep thousands of them. */
function readOf(card: QuestionCard, moving: MovingPart): CardRead {
  // A read older or newer than the card's moving part (a read raced by a change) is its own.
  if (moving !== card.moving) return { card, moving };
  if (card.lastRead?.moving !== moving) card.lastRead = { card, moving };
  return card.lastRead;
}

/** The seq of the last vote a moving part counts. */
export function lastSeqOf(moving: Pick<MovingPart, 'voteCount' | 'votesRemoved'>): number {
  return moving.voteCount + moving.votesRemoved;
}

export function resultOf(card: QuestionCard, moving: MovingPart): Result {
  return (moving.result ??= buildResult(card.kind, moving.votesByChoice));
}

/** The moving fields of a view as JSON, each continuing `fixedJson`; written once per change. */
export function movingJson(card: QuestionCard, moving: MovingPart, withResult: boolean): string {
  const json = (moving.json ??= {});
  const names = `,"user_name":${JSON.stringify(moving.authorName)},"like_count":${moving.likeCount},"vote_count":${moving.voteCount}`;
  if (withResult) return (json.withResult ??= `,"result":${JSON.stringify(resultOf(card, moving))}${names}`);
  return (json.withoutResult ??= `,"result":null${names}`);
}

/** Votes per choice of each question, from the tallies kept by every vote. */
export async function tallies(db: Db, ids: number[]): Promise<Map<number, Map<number, number>>> {
  const byQuestion = new Map<number, Map<number, number>>(ids.map((id) => [id, new Map()]));
  if (ids.length === 0) return byQuestion;
  const rows = await db
    .selectFrom('vote_tallies')
    .select(['question_id', 'choice', 'count'])
    .where('question_id', 'in', ids)
    .execute();
  for (const row of rows) byQuestion.get(row.question_id)?.set(row.choice, row.count);
  return byQuestion;
}

/** What a question shows of itself, its category's name included (with `categories` joined): a card's, an export's. */
export const QUESTION_COLUMNS = [
  'questions.id',
  'questions.type',
  'questions.title',
  'questions.language',
  'questions.category_id',
  'categories.name as category_name',
  'questions.choice_labels',
  'questions.range_min',
  'questions.range_max',
  'questions.published_at',
] as const;

/**
 * What a card is made of, a question's row at a time: its fixed columns, its moving counts, its tag and its votes per
 * choice (from the tallies kept by every vote), in one statement for the cards missed in a turn.
 */
const cardRows = new Lookup(
  (db, idIsOneOf) =>
    db
      .selectFrom('questions')
      .innerJoin('users', 'users.id', 'questions.user_id')
      .leftJoin('categories', 'categories.id', 'questions.category_id')
      .select((eb) => [
        ...QUESTION_COLUMNS,
        'questions.user_id',
        'questions.vote_count',
        'questions.votes_removed',
        'questions.like_count',
        'users.first_name as author_name',
        sql<unknown>`(${eb
          .selectFrom('question_tags')
          .select(jsonArrayOf(dialectOf(db), [sql.ref('tag')]).as('tags'))
          .whereRef('question_tags.question_id', '=', 'questions.id')})`.as('tags'),
        sql<unknown>`(${eb
          .selectFrom('vote_tallies')
          .select(jsonArrayOf(dialectOf(db), [sql.ref('choice'), sql.ref('count')]).as('tallies'))
          .whereRef('vote_tallies.question_id', '=', 'questions.id')})`.as('tallies'),
      ])
      .where(idIsOneOf('questions.id')),
  (row) => row.id,
);
type CardRow = NonNullable<Awaited<ReturnType<typeof cardRows.loadOne>>>;

function stale(card: QuestionCard): void {
  card.generation += 1;
  card.moving = null;
}

/**
 * The questions this server instance shows, kept in memory: what never changes once asked, and
 * what moves (votes per choice, likes, the author's name), which is read again once a change
 * made elsewhere is heard of (`staled`, from the other instances through Redis) and updated in
 * place for the changes made here. The least recently shown are dropped past `maxCards`.
 */
export class QuestionCards {
  private readonly cards: ClockCache<number, QuestionCard>;
  /** Parts that thousands of cards have alike, as one object each: the kinds with a fixed scale, the categories. */
  private readonly sharedParts = new Map<string, object>();
  /** For each read from the database under way, the questions deleted meanwhile: it may have found them before. */
  private readonly reading = new Set<Set<number>>();

  constructor(maxCards: number) {
    // A card no longer kept is no longer updated: marked stale, nothing made from it passes for current.
    this.cards = new ClockCache(maxCards, () => 1, stale);
  }

  /** What is kept, for the metrics. */
  stats(): CacheStats {
    return this.cards.stats();
  }

  /**
   * The cards of `ids` that exist, each with a moving part that has counted the votes up to the
   * seq `seqsCounted` asks of it (a viewer's own vote must show in the result they see).
   */
  async read(
    db: Db,
    ids: readonly number[],
    seqsCounted?: ReadonlyMap<number, number>,
  ): Promise<Map<number, CardRead>> {
    const reads = new Map<number, CardRead>();
    const missing: number[] = [];
    const stale: QuestionCard[] = [];
    for (const id of ids) {
      const card = this.cards.get(id);
      if (!card) {
        missing.push(id);
        continue;
      }
      if (card.moving && lastSeqOf(card.moving) >= (seqsCounted?.get(id) ?? 0))
        reads.set(id, readOf(card, card.moving));
      else stale.push(card);
    }
    if (missing.length > 0 || stale.length > 0) await this.readFromDatabase(db, missing, stale, reads);
    return reads;
  }

  /** A vote committed, here or elsewhere, with its place in its question's order. */
  voteCounted(questionId: number, choice: number, seq: number): void {
    const card = this.cards.get(questionId);
    if (!card) return;
    card.generation += 1;
    const moving = card.moving;
    // Exact only when every earlier vote is counted already, and this one not yet; else read it again.
    if (!moving || lastSeqOf(moving) !== seq - 1) {
      card.moving = null;
      return;
    }
    const votesByChoice = new Map(moving.votesByChoice);
    votesByChoice.set(choice, (votesByChoice.get(choice) ?? 0) + 1);
    // What was written from the old counts goes with them.
    card.moving = { ...moving, voteCount: moving.voteCount + 1, votesByChoice, result: undefined, json: undefined };
  }

  /** A like or unlike committed here. */
  likesChanged(questionId: number, delta: number): void {
    const card = this.cards.get(questionId);
    if (!card) return;
    card.generation += 1;
    const moving = card.moving;
    if (moving) card.moving = { ...moving, likeCount: moving.likeCount + delta, json: undefined };
  }

  /** Something changed the question in a way a kept card cannot follow in place: read it again. */
  staled(questionId: number): void {
    const card = this.cards.get(questionId);
    if (card) stale(card);
  }

  /** The questions were deleted: nothing shows them again, not even a read that found them before. */
  forget(questionIds: readonly number[]): void {
    for (const questionId of questionIds) {
      this.cards.delete(questionId);
      for (const deleted of this.reading) deleted.add(questionId);
    }
  }

  /** The author changed their name: rare enough to look at every card kept. */
  authorRenamed(authorId: number): void {
    for (const card of this.cards.values()) if (card.authorId === authorId) stale(card);
  }

  /** Changes made elsewhere may have gone unheard (Redis was unreachable). */
  staledAll(): void {
    for (const card of this.cards.values()) stale(card);
  }

  private shared<T extends object>(key: string, part: T): T {
    const kept = this.sharedParts.get(key);
    if (kept) return kept as T;
    this.sharedParts.set(key, part);
    return part;
  }

  private async readFromDatabase(
    db: Db,
    missing: number[],
    stale: QuestionCard[],
    reads: Map<number, CardRead>,
  ): Promise<void> {
    const generations = new Map(stale.map((card) => [card.id, card.generation]));
    const deletedMeanwhile = new Set<number>();
    this.reading.add(deletedMeanwhile);
    const rowsOf = (ids: readonly number[]) => Promise.all(ids.map((id) => cardRows.loadOne(db, id)));
    const [newRows, movingRows] = await Promise.all([rowsOf(missing), rowsOf(stale.map((card) => card.id))]).finally(
      () => this.reading.delete(deletedMeanwhile),
    );
    const movingOf = (row: CardRow): MovingPart => ({
      voteCount: row.vote_count,
      votesRemoved: row.votes_removed,
      likeCount: row.like_count,
      authorName: row.author_name,
      votesByChoice: new Map(fromJsonArray<[number, number]>(row.tallies)),
    });

    for (const row of newRows) {
      if (!row || deletedMeanwhile.has(row.id)) continue;
      const read = questionKind(row);
      // A number's bounds are the author's own; a choice's count and a rating's scale are few.
      const kind =
        read.type === 'N'
          ? read
          : this.shared(`kind:${read.type === 'MC' ? read.keys.length : `${read.min}:${read.max}`}`, read);
      const moving = movingOf(row);
      const category =
        row.category_id !== null && row.category_name !== null
          ? this.shared(`category:${row.category_id}`, { id: row.category_id, name: row.category_name })
          : null;
      const fixed: FixedPart = {
        id: row.id,
        qid: row.id,
        type: kind.type,
        title: row.title,
        language: row.language,
        category,
        choices: choicesOf(row, kind),
        tags: fromJsonArray<string>(row.tags).map((name) => ({ name })),
        published_at: row.published_at,
        user: row.user_id,
      };
      const card: QuestionCard = {
        id: row.id,
        authorId: row.user_id,
        kind,
        fixed,
        fixedJson: JSON.stringify(fixed).slice(0, -1),
        moving,
        generation: 0,
        lastRead: undefined,
      };
      // Another request may have read it meanwhile: the first one kept is the one used.
      const kept = this.cards.get(row.id);
      if (!kept) this.cards.set(row.id, card);
      reads.set(row.id, readOf(kept ?? card, moving));
    }
    const staleById = new Map(stale.map((card) => [card.id, card]));
    for (const row of movingRows) {
      if (!row) continue;
      const card = staleById.get(row.id)!;
      const moving = movingOf(row);
      if (card.generation === generations.get(card.id)) card.moving = moving;
      reads.set(row.id, readOf(card, moving));
    }
  }
}
