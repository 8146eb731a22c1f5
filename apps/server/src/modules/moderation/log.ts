import type { ModerationLogPage } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import { decodeCursor, pageOf } from '../../db/pagination.js';

const LOG_PAGE = 50;

/** The log of every action, newest first; an entry whose moderator deleted their account names nobody. */
export async function logPage(db: Db, cursor: string | undefined): Promise<ModerationLogPage> {
  const before = decodeCursor(cursor);
  let query = db
    .selectFrom('moderation_log')
    .leftJoin('users', 'users.id', 'moderation_log.moderator_id')
    .select([
      'moderation_log.id as key',
      'moderation_log.at',
      'moderation_log.moderator_id',
      'users.first_name',
      'moderation_log.action',
      'moderation_log.target',
      'moderation_log.target_id',
      'moderation_log.reason',
      'moderation_log.until',
      'moderation_log.own_question',
    ])
    .orderBy('moderation_log.id', 'desc')
    .limit(LOG_PAGE + 1);
  if (before !== null) query = query.where('moderation_log.id', '<', before);
  const { items, next } = pageOf(await query.execute(), LOG_PAGE);
  return {
    entries: items.map((row) => ({
      id: row.key,
      at: row.at,
      moderator: { id: row.moderator_id, name: row.first_name ?? '' },
      action: row.action,
      target: row.target,
      target_id: row.target_id,
      reason: row.reason,
      until: row.until,
      own_question: row.own_question === 1,
    })),
    next,
  };
}
