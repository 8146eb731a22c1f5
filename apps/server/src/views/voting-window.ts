/**
 * The window an embed opens to vote (contract §7, `embedVotePath`): `/q/{id}?answer=…`, which leads to the app's
 * question screen with the same `answer`, maybe through signing in or registering first (`?next=` that screen).
 *
 * Every document that window may load is sent `Cross-Origin-Opener-Policy: unsafe-none`, redirects included: the
 * embed opens it from a frame on another site, and a document with any other policy (`same-origin`,
 * `same-origin-allow-popups`, `noopener-allow-popups`) puts the window in a browsing context group of its own, where
 * `window.opener` is null and the vote never reaches the embed. Every other document keeps `same-origin`
 * (docs/security.md, "Embeds").
 */
export const VOTING_WINDOW_OPENER_POLICY = 'unsafe-none';

/** The app's question screen, where the voting window votes. */
const QUESTION_SCREEN = /^\/question\/\d+$/;
/** The screens that lead a visitor on to `?next=` once signed in or registered. */
const SIGN_IN_SCREENS = new Set(['/login', '/register', '/quiz']);

/** Stands for this site when reading a path: only the path and query matter. */
const HERE = 'http://pollscope.invalid';

/** `path` read as an address of this site, or null when it names another site or none. */
function ownAddress(path: string): URL | null {
  try {
    const url = new URL(path, HERE);
    return url.origin === HERE ? url : null;
  } catch {
    return null;
  }
}

const isVoteScreen = (url: URL | null) =>
  url !== null && QUESTION_SCREEN.test(url.pathname) && url.searchParams.has('answer');

/** Whether the document at `path` (a request's URL: path and query) may be the window an embed opened to vote. */
export function mayBeVotingWindow(path: string): boolean {
  const url = ownAddress(path);
  if (!url) return false;
  if (isVoteScreen(url)) return true;
  const next = url.searchParams.get('next');
  return SIGN_IN_SCREENS.has(url.pathname) && next !== null && isVoteScreen(ownAddress(next));
}

/** The app's question screen voting for `answer`, where `/q/{id}?answer=…` leads. */
export const votingScreenPath = (id: number, answer: string) => `/question/${id}?${new URLSearchParams({ answer })}`;
