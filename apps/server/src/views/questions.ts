import type { Question } from '@pollscope/contract';
import type { Db } from '../db/index.js';
import type { QuestionRow } from '../db/schema.js';
import { buildResult, type QuestionKind } from './results.js';

export function choiceLabels(row: Pick<QuestionRow, 'choice_labels'>): string[] {
  return row.choice_labels ? (JSON.parse(row.choice_labels) as string[]) : [];
}

/** MC choices are keyed 1..n in the order they were written. */
export function questionKind(row: Pick<QuestionRow, 'type' | 'choice_labels' | 'range_min' | 'range_max'>): QuestionKind {
  if (row.type === 'MC') return { type: 'MC', keys: choiceLabels(row).map((_, index) => index + 1) };
  return { type: row.type, min: row.range_min ?? 0, max: row.range_max ?? 0 };
}

/** Votes per choice of each question, from the tallies kept by every vote. */
export async function tallies(db: Db, questionIds: number[]): Promise<Map<number, Map<number, number>>> {
  const byQuestion = new Map<number, Map<number, number>>();
  if (questionIds.length === 0) return byQuestion;
  const rows = await db.selectFrom('vote_tallies').select(['question_id', 'choice', 'count']).where('question_id', 'in', questionIds).execute();
  for (const row of rows) {
    let votesByChoice = byQuestion.get(row.question_id);
    if (!votesByChoice) byQuestion.set(row.question_id, (votesByChoice = new Map()));
    votesByChoice.set(row.choice, row.count);
  }
  return byQuestion;
}

/** The parts of a question that never change once it is asked, and how its results are counted. */
interface QuestionCard {
  unchanging: Pick<Question, 'id' | 'qid' | 'type' | 'title' | 'category' | 'choices' | 'tags' | 'published_at' | 'user'>;
  kind: QuestionKind;
}

/** Questions are never edited, so their cards can be kept for as long as the process lives. */
const CARD_CAPACITY = 20_000;

/** Cards by question id, oldest first: one cache per database. */
const cardCaches = new WeakMap<Db, Map<number, QuestionCard>>();

async function loadCards(db: Db, ids: number[]): Promise<QuestionCard[]> {
  if (ids.length === 0) return [];
  const [rows, tagRows] = await Promise.all([
    db
      .selectFrom('questions')
      .leftJoin('categories', 'categories.id', 'questions.category_id')
      .select([
        'questions.id',
        'questions.type',
        'questions.title',
        'questions.category_id',
        'questions.choice_labels',
        'questions.range_min',
        'questions.range_max',
        'questions.published_at',
        'questions.user_id',
        'categories.name as category_name',
      ])
      .where('questions.id', 'in', ids)
      .execute(),
    db.selectFrom('question_tags').select(['question_id', 'tag']).where('question_id', 'in', ids).orderBy('tag').execute(),
  ]);
  const tagsByQuestion = new Map<number, { name: string }[]>();
  for (const { question_id, tag } of tagRows) {
    const tags = tagsByQuestion.get(question_id) ?? [];
    tags.push({ name: tag });
    tagsByQuestion.set(question_id, tags);
  }
  return rows.map((row) => {
    const kind = questionKind(row);
    return {
      unchanging: {
        id: row.id,
        qid: row.id,
        type: row.type,
        title: row.title,
        category: row.category_id !== null && row.category_name !== null ? { id: row.category_id, name: row.category_name } : null,
        choices: kind.type === 'MC' ? choiceLabels(row).map((value, index) => ({ key: index + 1, value })) : { min: kind.min, max: kind.max },
        tags: tagsByQuestion.get(row.id) ?? [],
        published_at: row.published_at,
        user: row.user_id,
      },
      kind,
    };
  });
}

async function questionCards(db: Db, ids: number[]): Promise<Map<number, QuestionCard>> {
  let cache = cardCaches.get(db);
  if (!cache) cardCaches.set(db, (cache = new Map()));
  const cards = new Map<number, QuestionCard>();
  const missing: number[] = [];
  for (const id of ids) {
    const card = cache.get(id);
    if (card) cards.set(id, card);
    else missing.push(id);
  }
  for (const card of await loadCards(db, missing)) {
    cards.set(card.unchanging.id, card);
    cache.set(card.unchanging.id, card);
    if (cache.size > CARD_CAPACITY) cache.delete(cache.keys().next().value!);
  }
  return cards;
}

/**
 * What moves on each question (its likes, its author's name) and, for a signed-in viewer, their
 * own vote, like and hide of it, in one query.
 */
function movingParts(db: Db, viewerId: number | null, ids: number[]) {
  // Ids start at 1: for a visitor the viewer's own parts find nothing.
  const viewer = viewerId ?? 0;
  return db
    .selectFrom('questions')
    .innerJoin('users', 'users.id', 'questions.user_id')
    .select((eb) => [
      'questions.id',
      'questions.like_count',
      'users.first_name as user_name',
      eb.selectFrom('votes').select('votes.choice').whereRef('votes.question_id', '=', 'questions.id').where('votes.user_id', '=', viewer).as('own_choice'),
      eb.exists(eb.selectFrom('likes').select('likes.id').whereRef('likes.question_id', '=', 'questions.id').where('likes.user_id', '=', viewer)).as('liked'),
      eb
        .exists(eb.selectFrom('passes').select('passes.question_id').whereRef('passes.question_id', '=', 'questions.id').where('passes.user_id', '=', viewer))
        .as('passed'),
    ])
    .where('questions.id', 'in', ids)
    .execute();
}

/**
 * The contract's Question for each id, as seen by `viewerId`, in the order given, in a fixed
 * number of queries whatever the page size: what moves (likes, the author's name, the viewer's
 * own actions, the tallies) is read each time, the rest comes from the question's card. Unknown
 * ids are left out. A caller that shows results of its own (breakdown) sets `withResults: false`.
 */
export async function questionViews(db: Db, viewerId: number | null, ids: number[], { withResults = true } = {}): Promise<Question[]> {
  if (ids.length === 0) return [];
  const [moving, cards] = await Promise.all([movingParts(db, viewerId, ids), questionCards(db, ids)]);
  // Nobody sees a result before voting, except the question's author.
  const withResult = withResults ? moving.filter((row) => row.own_choice !== null || cards.get(row.id)?.unchanging.user === viewerId).map((row) => row.id) : [];
  const votesByQuestion = await tallies(db, withResult);

  const byId = new Map<number, Question>();
  for (const row of moving) {
    const card = cards.get(row.id);
    if (!card) continue;
    const ownChoice = row.own_choice;
    const owner = card.unchanging.user === viewerId;
    byId.set(row.id, {
      ...card.unchanging,
      result: withResults && (ownChoice !== null || owner) ? buildResult(card.kind, votesByQuestion.get(row.id) ?? new Map()) : null,
      answer: ownChoice === null ? null : { choice: ownChoice },
      user_name: row.user_name,
      like_count: row.like_count,
      liked: Boolean(row.liked),
      passed: Boolean(row.passed),
      owner,
    });
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}
