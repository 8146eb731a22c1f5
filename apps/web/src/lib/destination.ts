/**
 * Where a visitor was headed before being asked to log in or sign up (a shared question, say),
 * carried through the quiz, sign-up and log-in screens as `?next=` and visited once signed in.
 */
const NEXT = 'next';

/** The destination named in a query string, if it is a path of this site: never another site's address. */
export function destinationIn(search: URLSearchParams): string | null {
  const next = search.get(NEXT);
  // "//host" and "/\host" are addresses of other sites to a browser.
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return null;
  return next;
}

/** `path` with the destination to go on to, when there is one. */
export function withDestination(path: string, destination: string | null): string {
  return destination ? `${path}?${new URLSearchParams({ [NEXT]: destination })}` : path;
}
