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

/**
 * Ends this device's push subscription: the notifications it was made for are the person's who
 * signs out. The push service then refuses the server's next push to it, and the server forgets it.
 */
function endPushSubscription(): void {
  if (!('serviceWorker' in navigator)) return;
  void navigator.serviceWorker
    .getRegistration()
    .then((registration) => registration?.pushManager?.getSubscription())
    .then((subscription) => subscription?.unsubscribe())
    .catch(() => undefined);
}

export function clearToken(): void {
  localStorage.removeItem(TOKEN_KEY);
  endPushSubscription();
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

/** Calls `listener` whenever the person signs in or out, in this tab or another; returns what stops it. */
export function onSignInChange(listener: () => void): () => void {
  listeners.add(listener);
  // Signing in or out in another tab changes this one too.
  window.addEventListener('storage', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', listener);
  };
}
