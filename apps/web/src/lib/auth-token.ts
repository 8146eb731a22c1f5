import { useSyncExternalStore } from 'react';

/** Where the sign-in token lives: its presence is what "signed in" means to the app. */
const TOKEN_KEY = 'pollscope.token';

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

export function storeToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
  notify();
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
  notify();
}

/** The stored token as the API expects it, when there is one. */
export function authorizationHeader(): { Authorization?: string } {
  const token = getToken();
  return token ? { Authorization: `Token ${token}` } : {};
}

export function isSignedIn(): boolean {
  return getToken() !== null;
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  // Signing in or out in another tab changes this one too.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}

export function useSignedIn(): boolean {
  return useSyncExternalStore(subscribe, isSignedIn);
}
