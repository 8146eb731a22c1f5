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

/**
 * The contract's Question for each id, as seen by `viewerId`, in the order given, in a fixed
 * number of queries whatever the page size. Unknown ids are left out. A caller that shows
 * results of its own (breakdown) sets `withResults: false`.
 */
export async function questionViews(db: Db, viewerId: number | null, ids: number[], { withResults = true } = {}): Promise<Question[]> {
  if (ids.length === 0) return [];
  const [rows, tagRows, ownVotes, ownLikes, ownPasses] = await Promise.all([
    db
      .selectFrom('questions')
      .innerJoin('users', 'users.id', 'questions.user_id')
      .leftJoin('categories', 'categories.id', 'questions.category_id')
      .selectAll('questions')
      .select(['users.first_name as user_name', 'categories.name as category_name'])
      .where('questions.id', 'in', ids)
      .execute(),
    db.selectFrom('question_tags').select(['question_id', 'tag']).where('question_id', 'in', ids).orderBy('tag').execute(),
    viewerId === null
      ? []
      : db.selectFrom('votes').select(['question_id', 'choice']).where('user_id', '=', viewerId).where('question_id', 'in', ids).execute(),
    viewerId === null ? [] : db.selectFrom('likes').select('question_id').where('user_id', '=', viewerId).where('question_id', 'in', ids).execute(),
    viewerId === null ? [] : db.selectFrom('passes').select('question_id').where('user_id', '=', viewerId).where('question_id', 'in', ids).execute(),
  ]);

  const choiceByQuestion = new Map(ownVotes.map((vote) => [vote.question_id, vote.choice]));
  const liked = new Set(ownLikes.map((like) => like.question_id));
  const passed = new Set(ownPasses.map((pass) => pass.question_id));
  const tagsByQuestion = new Map<number, { name: string }[]>();
  for (const { question_id, tag } of tagRows) {
    const tags = tagsByQuestion.get(question_id) ?? [];
    tags.push({ name: tag });
    tagsByQuestion.set(question_id, tags);
  }
  // Nobody sees a result before voting, except the question's author.
  const withResult = withResults ? rows.filter((row) => choiceByQuestion.has(row.id) || row.user_id === viewerId).map((row) => row.id) : [];
  const hasResult = new Set(withResult);
  const votesByQuestion = await tallies(db, withResult);

  const byId = new Map<number, Question>();
  for (const row of rows) {
    const kind = questionKind(row);
    const ownChoice = choiceByQuestion.get(row.id);
    byId.set(row.id, {
      id: row.id,
      qid: row.id,
      type: row.type,
      title: row.title,
      category: row.category_id !== null && row.category_name !== null ? { id: row.category_id, name: row.category_name } : null,
      choices: kind.type === 'MC' ? choiceLabels(row).map((value, index) => ({ key: index + 1, value })) : { min: kind.min, max: kind.max },
      result: hasResult.has(row.id) ? buildResult(kind, votesByQuestion.get(row.id) ?? new Map()) : null,
      answer: ownChoice === undefined ? null : { choice: ownChoice },
      tags: tagsByQuestion.get(row.id) ?? [],
      published_at: row.published_at,
      user: row.user_id,
      user_name: row.user_name,
      like_count: row.like_count,
      liked: liked.has(row.id),
      passed: passed.has(row.id),
      owner: row.user_id === viewerId,
    });
  }
  return ids.flatMap((id) => byId.get(id) ?? []);
}
