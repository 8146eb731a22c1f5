// What other module areas use of web push: queue a notification's push in their transaction, list a person's subscriptions.
export { queuePush } from './outbox.js';
export { subscriptionsOf } from './subscriptions.js';
