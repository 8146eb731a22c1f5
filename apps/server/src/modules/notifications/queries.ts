import type { Notification, NotificationPage } from '@pollscope/contract';
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../../db/index.js';
import { pageOf } from '../../db/pagination.js';
import type { Database } from '../../db/schema.js';
import { blockedEitherWay } from '../social/index.js';

const PAGE_SIZE = 20;
/** Actors named on a notification, the most recent first. */
const ACTORS_SHOWN = 3;

/** An actor of a notification whom its person does not block and is not blocked by. */
function actorShown(userId: number) {
  return (eb: ExpressionBuilder<Database, 'notification_actors'>): Expression<SqlBool> =>
    eb.not(
      eb.exists(
        eb
          .selectFrom('blocks')
          .select('blocks.blocker_id')
          .where(blockedEitherWay(userId, eb.ref('notification_actors.actor_id'))),
      ),
    );
}

/**
 * A notification the person sees: one of votes or of a moderator's action, or one with an actor
 * left once those blocked either way are left out. Read at every call, so a block hides what was
 * there before it.
 */
function shown(userId: number) {
  return (eb: ExpressionBuilder<Database, 'notifications'>): Expression<SqlBool> =>
    eb.or([
      eb('notifications.kind', 'in', ['votes', 'moderation']),
      eb.exists(
        eb
          .selectFrom('notification_actors')
          .select('notification_actors.actor_id')
          .whereRef('notification_actors.notification_id', '=', 'notifications.id')
          .where(actorShown(userId)),
      ),
    ]);
}

/** How many of the person's notifications they see and have not read. */
export async function unreadCount(db: Db, userId: number): Promise<number> {
  const { unread } = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('unread'))
    .where('notifications.user_id', '=', userId)
    .where('notifications.read_at', 'is', null)
    .where(shown(userId))
    .executeTakeFirstOrThrow();
  return unread;
}

/** The first names of each notification's most recent actors that the person sees, and how many they see in all. */
async function actorsOf(
  db: Db,
  userId: number,
  notificationIds: number[],
): Promise<Map<number, Pick<Notification, 'actors' | 'actor_count'>>> {
  const actors = new Map(notificationIds.map((id) => [id, { actors: [] as Notification['actors'], actor_count: 0 }]));
  if (notificationIds.length === 0) return actors;
  const ranked = db
    .selectFrom('notification_actors')
    .innerJoin('users', 'users.id', 'notification_actors.actor_id')
    .select(['notification_actors.notification_id', 'users.id', 'users.first_name'])
    .select((eb) => [
      eb.fn
        .agg<number>('row_number')
        .over((over) =>
          over
            .partitionBy('notification_actors.notification_id')
            .orderBy('notification_actors.created_at', 'desc')
            .orderBy('users.id', 'desc'),
        )
        .as('rank'),
      eb.fn
        .countAll<number>()
        .over((over) => over.partitionBy('notification_actors.notification_id'))
        .as('total'),
    ])
    .where('notification_actors.notification_id', 'in', notificationIds)
    .where(actorShown(userId));
  const rows = await db
    .selectFrom(ranked.as('ranked'))
    .selectAll()
    .where('rank', '<=', ACTORS_SHOWN)
    .orderBy('notification_id')
    .orderBy('rank')
    .execute();
  for (const row of rows) {
    const entry = actors.get(row.notification_id)!;
    entry.actors.push({ id: row.id, name: row.first_name });
    entry.actor_count = row.total;
  }
  return actors;
}

/** The person's notifications they see, with their question, for a list to narrow and order. */
function shownNotifications(db: Db, userId: number) {
  return db
    .selectFrom('notifications')
    .leftJoin('questions', 'questions.id', 'notifications.question_id')
    .select([
      'notifications.id as key',
      'notifications.kind',
      'notifications.created_at',
      'notifications.read_at',
      'notifications.count',
      'notifications.moderation_action',
      'notifications.moderation_reason',
      'notifications.moderation_until',
      'questions.id as question_id',
      'questions.title',
    ])
    .where('notifications.user_id', '=', userId)
    .where(shown(userId));
}

type NotificationItem = Awaited<ReturnType<ReturnType<typeof shownNotifications>['execute']>>[number];

/** The notifications of those rows, with the actors the person sees. */
async function described(db: Db, userId: number, items: NotificationItem[]): Promise<Notification[]> {
  const actors = await actorsOf(
    db,
    userId,
    items.map((item) => item.key),
  );
  return items.map((item): Notification => ({
    id: item.key,
    kind: item.kind,
    created_at: item.created_at,
    read: item.read_at !== null,
    ...actors.get(item.key)!,
    question: item.question_id === null ? null : { id: item.question_id, qid: item.question_id, title: item.title! },
    count: item.count,
    ...(item.moderation_action === null
      ? {}
      : {
          moderation: {
            action: item.moderation_action,
            reason: item.moderation_reason ?? '',
            until: item.moderation_until,
          },
        }),
  }));
}

/** A page of the person's notifications, newest first, with their unread count. */
export async function listNotifications(db: Db, userId: number, cursor: number | null): Promise<NotificationPage> {
  let query = shownNotifications(db, userId)
    .orderBy('notifications.id', 'desc')
    .limit(PAGE_SIZE + 1);
  if (cursor !== null) query = query.where('notifications.id', '<', cursor);
  const { items, next } = pageOf(await query.execute(), PAGE_SIZE);
  return { notifications: await described(db, userId, items), next, unread: await unreadCount(db, userId) };
}

/**
 * An unread notification not mailed yet. A like joining a like notification makes it unmailed
 * again, so that the next mail tells of the newcomers.
 */
export function unmailed(eb: ExpressionBuilder<Database, 'notifications'>): Expression<SqlBool> {
  return eb.and([eb('notifications.read_at', 'is', null), eb('notifications.mailed_at', 'is', null)]);
}

/** Those of the notifications that the person sees, oldest first: what their mail lists, what a push tells. */
export async function notificationsShown(db: Db, userId: number, ids: number[]): Promise<Notification[]> {
  return described(
    db,
    userId,
    await shownNotifications(db, userId).where('notifications.id', 'in', ids).orderBy('notifications.id').execute(),
  );
}
