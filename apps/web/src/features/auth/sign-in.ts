import { safeDestination } from '../../lib/destination';
import { storeToken } from '../../lib/auth-token';

/**
 * Keeps the token and starts the app afresh, at the home feed or where the person was headed (a
 * path of this site only), so nothing from before sign-in lingers.
 */
export function signIn(token: string, destination: string | null = null): void {
  storeToken(token);
  window.location.assign(safeDestination(destination) ?? '/');
}
