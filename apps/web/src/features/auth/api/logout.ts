import { apiPost } from '../../../lib/api-client';
import { clearToken } from '../../../lib/auth-token';

/** Revokes the token on the server, then forgets it here whatever the server said. */
export async function logout(): Promise<void> {
  await apiPost('/api/auth/logout/');
  clearToken();
}
