import { storeToken } from '../../lib/auth-token';

/** Keeps the token and starts the app afresh at the home feed, so nothing from before sign-in lingers. */
export function signIn(token: string): void {
  storeToken(token);
  window.location.assign('/');
}
