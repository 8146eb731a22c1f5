/**
 * Where a visitor was headed before being asked to log in or sign up (a shared question, say),
 * carried through the quiz, sign-up and log-in screens as `?next=` and visited once signed in.
 */
const NEXT = 'next';

/** Control and invisible formatting characters: browsers drop tabs and line breaks from addresses. */
const UNSEEN = /[\p{Cc}\p{Cf}]/u;

/** Stands for this site when resolving a path: only the comparison of origins matters. */
const HERE = 'https://pollscope.invalid';

/**
 * `next` when it is a path of this site, else null: never another site's address, whatever a browser
 * would make of it. "//host" and "/\host" are addresses of other sites to a browser, and it drops
 * tabs and line breaks before reading an address ("/\t/host" is "//host"), so any such character
 * refuses the whole value. The value kept is the one checked, not a normalised form: resolving
 * "/.//host" gives the path "//host", which sent on would leave the site.
 */
export function safeDestination(next: string | null | undefined): string | null {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || UNSEEN.test(next))
    return null;
  let resolved: URL;
  try {
    resolved = new URL(next, HERE);
  } catch {
    return null;
  }
  return resolved.origin === HERE ? next : null;
}

/** The destination named in a query string, if it is a path of this site. */
export function destinationIn(search: URLSearchParams): string | null {
  return safeDestination(search.get(NEXT));
}

/** `path` with the destination to go on to, when there is one. */
export function withDestination(path: string, destination: string | null): string {
  return destination ? `${path}?${new URLSearchParams({ [NEXT]: destination })}` : path;
}
