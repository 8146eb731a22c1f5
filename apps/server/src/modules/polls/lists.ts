import type { PageQuery } from '@pollscope/contract';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../../db/index.js';
import { decodeCursor, pageOf } from '../../db/pagination.js';
import type { Database } from '../../db/schema.js';
import type { ViewerState } from '../../views/viewer-states.js';
import { authorNotBlocked } from '../social/index.js';
import { newestOf, type AuthorList, type AuthorQuestions } from './author-questions.js';

export interface QuestionIdPage {
  ids: number[];
  next: string | null;
}

/** What every list leaves out: questions the viewer passed and authors blocked either way. */
function shownTo(viewerId: number) {
  return (eb: ExpressionBuilder<Database, 'questions'>): Expression<SqlBool> =>
    eb.and([
      eb.not(
        eb.exists(
          eb.selectFrom('passes').select('passes.question_id').whereRef('passes.question_id', '=', 'questions.id').where('passes.user_id', '=', viewerId),
        ),
      ),
      authorNotBlocked(viewerId)(eb),
    ]);
}

type QuestionFilter = (eb: ExpressionBuilder<Database, 'questions'>) => Expression<SqlBool>;

/** A page of questions ordered by their own id, newest first. */
async function questionsWhere(db: Db, viewerId: number, page: PageQuery, filter: QuestionFilter): Promise<QuestionIdPage> {
  const after = decodeCursor(page.cursor);
  let query = db
    .selectFrom('questions')
    .select('questions.id as key')
    .where(filter)
    .where(shownTo(viewerId))
    .orderBy('questions.id', 'desc')
    .limit(page.limit + 1);
  if (after !== null) query = query.where('questions.id', '<', after);
  const { items, next } = pageOf(await query.execute(), page.limit);
  return { ids: items.map((row) => row.key), next };
}

export interface FeedIdPage extends QuestionIdPage {
  /** The followees' question lists the page was merged from. */
  authorLists: readonly AuthorList[];
}

/**
 * Questions asked by the users the viewer follows, merged from their lists kept in memory. A
 * block ends follows both ways, and a hidden question is left out as in every list.
 */
export async function listFeed(db: Db, authorQuestions: AuthorQuestions, viewer: ViewerState, page: PageQuery): Promise<FeedIdPage> {
  const after = decodeCursor(page.cursor);
  const authorLists = await authorQuestions.listsOf(db, viewer.followees);
  const ids = newestOf(
    authorLists.map((list) => list.ids),
    after,
    page.limit + 1,
    (id) => viewer.passes.has(id),
  );
  const { items, next } = pageOf(ids.map((key) => ({ key })), page.limit);
  return { ids: items.map((item) => item.key), next, authorLists };
}

export function listCategory(db: Db, viewerId: number, categoryId: number, page: PageQuery): Promise<QuestionIdPage> {
  return questionsWhere(db, viewerId, page, (eb) => eb('questions.category_id', '=', categoryId));
}

export function listTag(db: Db, viewerId: number, tag: string, page: PageQuery): Promise<QuestionIdPage> {
  return questionsWhere(db, viewerId, page, (eb) =>
    eb('questions.id', 'in', eb.selectFrom('question_tags').select('question_tags.question_id').where('question_tags.tag', '=', tag)),
  );
}

export function listAskedBy(db: Db, viewerId: number, authorId: number, page: PageQuery): Promise<QuestionIdPage> {
  return questionsWhere(db, viewerId, page, (eb) => eb('questions.user_id', '=', authorId));
}

/** Questions a user answered or liked, most recent first (keyed by the vote or the like). */
async function questionsActedOnBy(db: Db, viewerId: number, table: 'votes' | 'likes', userId: number, page: PageQuery): Promise<QuestionIdPage> {
  const after = decodeCursor(page.cursor);
  let query = db
    .selectFrom(table)
    .innerJoin('questions', 'questions.id', `${table}.question_id`)
    .select([`${table}.id as key`, `${table}.question_id as question_id`])
    .where(`${table}.user_id`, '=', userId)
    .where(shownTo(viewerId))
    .orderBy(`${table}.id`, 'desc')
    .limit(page.limit + 1);
  if (after !== null) query = query.where(`${table}.id`, '<', after);
  const { items, next } = pageOf(await query.execute(), page.limit);
  return { ids: items.map((row) => row.question_id), next };
}

export function listAnsweredBy(db: Db, viewerId: number, voterId: number, page: PageQuery): Promise<QuestionIdPage> {
  return questionsActedOnBy(db, viewerId, 'votes', voterId, page);
}

export function listLikedBy(db: Db, viewerId: number, likerId: number, page: PageQuery): Promise<QuestionIdPage> {
  return questionsActedOnBy(db, viewerId, 'likes', likerId, page);
}
