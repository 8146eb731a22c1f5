// What the rest of the app uses of web push: other module areas queue a notification's push in their transaction,
// list a person's subscriptions and end those of no session; the push worker (plugins/app/push.ts) sends the outbox's
// due pushes with the VAPID keys.
export { PUSH_TTL_SECONDS, pushOutbox, queuePush, withJoinedPushes, type PushRow } from './outbox.js';
export { createPushSender, type PushMessage, type PushOutcome, type PushSender } from './sender.js';
export { endSessionlessSubscriptions, removeGoneSubscription, subscriptionsOf } from './subscriptions.js';
export { keptVapidKeys } from './vapid.js';
