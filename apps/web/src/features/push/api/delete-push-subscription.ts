import { apiDelete } from '../../../lib/api-client';

/** Tells the server this device no longer takes pushes: 204 whether or not it knew the endpoint. */
export function deletePushSubscription(endpoint: string) {
  return apiDelete('/api/push/subscriptions/', { body: { endpoint } });
}
