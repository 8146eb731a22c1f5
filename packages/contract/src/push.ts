import { z } from 'zod';
import { notificationKindSchema } from './notifications.js';

/** GET api.pushKey: the public VAPID key, base64url, for `PushManager.subscribe`'s applicationServerKey. */
export const pushKeySchema = z.object({ key: z.string() });
export type PushKey = z.infer<typeof pushKeySchema>;

/**
 * POST api.pushSubscriptions: the browser's `PushSubscription.toJSON()`. The server posts to `endpoint`, so it must be
 * https and not a loopback, private or link-local address (checked by the server, 400 otherwise).
 */
export const pushSubscriptionBodySchema = z.object({
  endpoint: z.string().url().max(2048),
  keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }),
});
export type PushSubscriptionBody = z.input<typeof pushSubscriptionBodySchema>;

/** DELETE api.pushSubscriptions: 204, whether or not the endpoint was known. */
export const pushUnsubscribeBodySchema = z.object({ endpoint: z.string().url().max(2048) });
export type PushUnsubscribeBody = z.input<typeof pushUnsubscribeBodySchema>;

/** The decrypted payload (RFC 8291, aes128gcm) a service worker receives; `url` is the path it opens on click. */
export const pushPayloadSchema = z.object({
  kind: notificationKindSchema,
  title: z.string(),
  body: z.string(),
  url: z.string(),
  notification_id: z.number().int(),
});
export type PushPayload = z.infer<typeof pushPayloadSchema>;
