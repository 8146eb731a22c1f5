import { useSyncExternalStore } from 'react';
import { isSignedIn, onSignInChange } from '../lib/auth-token';

/** Whether a person is signed in, kept current as they sign in or out. */
export function useSignedIn(): boolean {
  return useSyncExternalStore(onSignInChange, isSignedIn);
}
