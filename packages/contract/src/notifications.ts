import { z } from 'zod';
import { notificationModerationSchema } from './moderation.js';

/**
 * `follow`: someone connected to you. `like`: people liked your question; while it is unread,
 * further likes of the same question join it. `votes`: your question reached 1, 10, 100, 1,000,
 * 10,000… votes (`count`). `moderation`: a moderator acted on you or your question (`moderation`, and `question`
 * when the action was on one); sent whatever the person's notification setting.
 */
export const NOTIFICATION_KINDS = ['follow', 'like', 'votes', 'moderation'] as const;
export const notificationKindSchema = z.enum(NOTIFICATION_KINDS);
export type NotificationKind = z.infer<typeof notificationKindSchema>;

export const notificationSchema = z.object({
  id: z.number().int(),
  kind: notificationKindSchema,
  created_at: z.string(),
  read: z.boolean(),
  /** Up to 3 people, the most recent first; `actor_count` is how many in all. */
  actors: z.array(z.object({ id: z.number().int(), name: z.string() })),
  actor_count: z.number().int(),
  question: z.object({ id: z.number().int(), qid: z.number().int(), title: z.string() }).nullable(),
  /** The votes reached, for `votes`; null otherwise. */
  count: z.number().int().nullable(),
  /** What a moderator did and why, for `moderation` only. */
  moderation: notificationModerationSchema.optional(),
});
export type Notification = z.infer<typeof notificationSchema>;

/** GET api.notifications: newest first, with the caller's unread count. */
export const notificationPageSchema = z.object({
  notifications: z.array(notificationSchema),
  next: z.string().nullable(),
  unread: z.number().int(),
});
export type NotificationPage = z.infer<typeof notificationPageSchema>;

/** POST api.notificationsRead: those ids, or without `ids` every notification, marked read. */
export const notificationsReadBodySchema = z
  .object({ ids: z.array(z.number().int().positive()).min(1).max(100).optional() })
  .optional()
  .transform((body) => body ?? {});
export type NotificationsReadBody = z.input<typeof notificationsReadBodySchema>;

export const unreadSchema = z.object({ unread: z.number().int() });
export type Unread = z.infer<typeof unreadSchema>;

/**
 * The name of the events of GET api.notificationsLive with Accept: text/event-stream: the caller's
 * unread count when the stream opens and each time it changes (`unreadSchema`). Without that
 * Accept header, the count once as JSON.
 */
export const UNREAD_EVENT = 'unread';
