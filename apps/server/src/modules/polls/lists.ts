import type { Db } from '../../db/index.js';
import { byQuestionId, type Skeleton } from '../../views/pipeline.js';
import type { ListKey, QuestionList, QuestionLists } from '../../views/question-lists.js';

/**
 * The skeletons of the lists people browse: which questions, in which order. What a list may
 * show the viewer (hidden, blocked) is decided after, by the read pipeline's rules.
 */

/**
 * A list kept in memory (an author's, a category's, a tag's, or the feed's merge of its followees'); `used` collects
 * the lists read.
 */
export function keptList(db: Db, lists: QuestionLists, keys: readonly ListKey[], used?: QuestionList[]): Skeleton {
  return async (before, count) => {
    const page = await lists.page(db, keys, before, count);
    used?.push(...page.lists);
    return byQuestionId(page.ids);
  };
}

/** Questions a user answered or liked, most recent first, keyed by the vote or the like. */
export function actedOnBy(db: Db, table: 'votes' | 'likes', userId: number): Skeleton {
  return async (before, count) => {
    let query = db
      .selectFrom(table)
      .select([`${table}.id as key`, `${table}.question_id as id`])
      .where(`${table}.user_id`, '=', userId)
      .orderBy(`${table}.id`, 'desc')
      .limit(count);
    if (before !== null) query = query.where(`${table}.id`, '<', before);
    return query.execute();
  };
}
