/**
 * The languages of the interface, and which of them a visitor gets: what the language switcher
 * chose (the `pollscope_lang` cookie), else the best match of the browser's languages, else
 * English (docs/i18n.md). Nothing here loads a catalog or React: the router asks for the
 * negotiated locale's catalog beside the frame's code (app/router.tsx).
 */
// The contract's UI_LOCALES, written again: this module is in the entry chunk, which must not
// pull in the contract's chunk (a test in locales.test.ts keeps the two lists the same).
export const locales = ['en', 'de', 'fr', 'es', 'it', 'pt-BR', 'ja', 'ar'] as const;

export type Locale = (typeof locales)[number];

export const defaultLocale: Locale = 'en';

/**
 * The pseudo-locale for tests (docs/i18n.md): English with its letters accented and its texts
 * lengthened by a third, so that a text left outside the catalogs, or cut off, shows at a
 * glance. Chosen only by the cookie; never offered, never kept on an account.
 */
export const pseudoLocale = 'en-XA';

/** A locale the app can be in: one of the languages, or the pseudo-locale. */
export type AppLocale = Locale | typeof pseudoLocale;

export function directionOf(locale: AppLocale): 'ltr' | 'rtl' {
  return locale === 'ar' ? 'rtl' : 'ltr';
}

export const LANGUAGE_COOKIE = 'pollscope_lang';

/** A year, in seconds: the switcher's choice outlives any session. */
const COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

export function isLocale(value: string): value is Locale {
  return (locales as readonly string[]).includes(value);
}

/**
 * The locale for one BCP 47 tag: the same tag (any case), else the first locale of the same
 * language (`pt-PT` → `pt-BR`, `de-AT` → `de`), else none.
 */
export function matchLocale(tag: string): Locale | null {
  const wanted = tag.trim().toLowerCase();
  if (!wanted) return null;
  const exact = locales.find((locale) => locale.toLowerCase() === wanted);
  if (exact) return exact;
  const language = wanted.split(/[-_]/)[0];
  return locales.find((locale) => locale.toLowerCase().split('-')[0] === language) ?? null;
}

/** What the cookie names, if it names a language or the pseudo-locale. */
function cookieValue(cookies: string): string | null {
  for (const pair of cookies.split(';')) {
    const [name, ...value] = pair.split('=');
    if (name.trim() === LANGUAGE_COOKIE) return decodeURIComponent(value.join('=').trim());
  }
  return null;
}

/** The locale the cookie names, if it names one. */
export function localeInCookies(cookies: string): Locale | null {
  const chosen = cookieValue(cookies);
  return chosen !== null && isLocale(chosen) ? chosen : null;
}

/** First match wins: the cookie's choice, then each of the browser's languages in its order, then English. */
export function negotiateLocale({
  cookies = '',
  languages = [],
}: {
  cookies?: string;
  languages?: readonly string[];
}): Locale {
  const chosen = localeInCookies(cookies);
  if (chosen) return chosen;
  for (const language of languages) {
    const match = matchLocale(language);
    if (match) return match;
  }
  return defaultLocale;
}

/**
 * This page's locale: the pseudo-locale when the cookie asks for it; else the one the server chose
 * for the page (`data-locale` on `<html>`), which knows a signed-in person's own language; else,
 * as on the development server, by the rule above.
 */
export function browserLocale(): AppLocale {
  if (typeof document === 'undefined') return defaultLocale;
  if (cookieValue(document.cookie) === pseudoLocale) return pseudoLocale;
  const chosen = document.documentElement.dataset.locale;
  if (chosen && isLocale(chosen)) return chosen;
  const languages = navigator.languages?.length ? navigator.languages : [navigator.language];
  return negotiateLocale({ cookies: document.cookie, languages });
}

/** Keeps the switcher's choice for a year, for this site's every page (and the server's, which reads it too). */
export function rememberLocale(locale: AppLocale): void {
  document.cookie = `${LANGUAGE_COOKIE}=${encodeURIComponent(locale)}; Max-Age=${COOKIE_MAX_AGE}; Path=/; SameSite=Lax`;
}
