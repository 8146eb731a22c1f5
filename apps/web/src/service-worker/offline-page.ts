import type { LanguageMessage } from './messages';

/** The page the worker shows when a page cannot be loaded (apps/web/offline.html), which the server sends per language. */
export const OFFLINE_PAGE = '/offline.html';

/** A language tag as the app names its locales ("fr", "pt-BR", "en-XA"): anything else is no message of a page. */
const LOCALE = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

export function isLanguageMessage(data: unknown): data is LanguageMessage {
  return (
    typeof data === 'object' &&
    data !== null &&
    (data as LanguageMessage).type === 'language' &&
    typeof (data as LanguageMessage).locale === 'string' &&
    LOCALE.test((data as LanguageMessage).locale)
  );
}

/**
 * Keeps the offline page in the language the app's pages speak: kept once at install, in the language of that moment,
 * it is fetched anew whenever a page speaks another (the server names a page's language in its Content-Language). It
 * is asked for in that language alone: without cookies, whose account or `pollscope_lang` cookie may not have caught
 * up with a switch yet, and with `Accept-Language`, which the server follows then. Switches follow one another in
 * order, so the last one's language is the one kept; a page that cannot be fetched leaves the kept one.
 */
export function offlinePageFollower(
  openCache: () => Promise<Cache>,
  fetchPage: (url: string, init: RequestInit) => Promise<Response> = fetch,
): (locale: string) => Promise<void> {
  let last = Promise.resolve();
  const follow = async (locale: string) => {
    const cache = await openCache();
    const kept = await cache.match(OFFLINE_PAGE);
    if (kept?.headers.get('content-language') === locale) return;
    const response = await fetchPage(OFFLINE_PAGE, {
      credentials: 'omit',
      headers: { 'Accept-Language': locale },
      cache: 'no-cache',
    });
    if (response.ok) await cache.put(OFFLINE_PAGE, response);
  };
  return (locale) => {
    last = last.then(() => follow(locale)).catch(() => undefined);
    return last;
  };
}
