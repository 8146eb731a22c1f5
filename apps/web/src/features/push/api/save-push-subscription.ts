import type { PushSubscriptionBody } from '@pollscope/contract';
import { apiPost } from '../../../lib/api-client';

/** Tells the server where to push the signed-in person's notifications for this device. */
export function savePushSubscription(body: PushSubscriptionBody) {
  return apiPost('/api/push/subscriptions/', { body });
}
