import { useSyncExternalStore } from 'react';
import { isSignedIn, onSignInChange } from '../lib/auth-token';

/** The server renders a signed-in person's first screen only (app/first-screen-on-server.tsx). */
const signedInOnServer = () => true;

/** Whether a person is signed in, kept current as they sign in or out. */
export function useSignedIn(): boolean {
  return useSyncExternalStore(onSignInChange, isSignedIn, signedInOnServer);
}
