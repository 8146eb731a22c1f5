import { api } from '@pollscope/contract';
import { apiDelete } from '../../../lib/api-client';

/** Tells the server this device no longer takes pushes: 204 whether or not it knew the endpoint. */
export function deletePushSubscription(endpoint: string) {
  return apiDelete<void>(api.pushSubscriptions, { endpoint });
}
