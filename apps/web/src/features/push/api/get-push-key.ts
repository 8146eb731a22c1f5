import { api, type PushKey } from '@pollscope/contract';
import { apiGet } from '../../../lib/api-client';

/** The server's public key, which a subscription must be made with for the server's pushes to reach it. */
export function getPushKey() {
  return apiGet<PushKey>(api.pushKey);
}
