import { SESSION_COOKIE } from '@pollscope/contract';

/** Where the sign-in token lives: its presence is what "signed in" means to the app. */
const TOKEN_KEY = 'pollscope.token';

/** As long as browsers keep a cookie (Chromium's cap); each start of the app renews it. */
const COOKIE_MAX_AGE_SECONDS = 400 * 24 * 60 * 60;

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

export function getToken(): string | null {
  return localStorage.getItem(TOKEN_KEY);
}

/**
 * The token in the session cookie as well, which the browser sends with the page so that the server can render the
 * person's feed in it (contract: web-page.ts); none once signed out.
 */
function writeSessionCookie(token: string | null): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  const value = token ? `${encodeURIComponent(token)}; Max-Age=${COOKIE_MAX_AGE_SECONDS}` : '; Max-Age=0';
  document.cookie = `${SESSION_COOKIE}=${value}; Path=/; SameSite=Lax${secure}`;
}

/** Keeps the session cookie in step with the stored token, for a session begun before the cookie existed. */
export function keepSessionCookie(): void {
  writeSessionCookie(getToken());
}

export function storeToken(token: string): void {
  localStorage.setItem(TOKEN_KEY, token);
  writeSessionCookie(token);
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
  writeSessionCookie(null);
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
