import { match } from '@formatjs/intl-localematcher';
import {
  DEFAULT_UI_LOCALE,
  isUiLocale,
  LANGUAGE_COOKIE,
  PSEUDO_LOCALE,
  UI_LOCALES,
  type UiLocale,
} from '@pollscope/contract';

/**
 * Which of the UI locales a request is answered in (CONTRACT.md §7, Languages), first match wins: the signed-in
 * account's `language`; the cookie `pollscope_lang` the language switcher sets; the best match of `Accept-Language`;
 * `en`.
 */

/** Longest `Accept-Language` read, and most of its languages weighed: enough for any browser, bounded for the rest. */
const MAX_HEADER_LENGTH = 1024;
const MAX_LANGUAGES = 20;

/** The tags of `Accept-Language` best first, by their q-values (equal ones in their order), without `*` and q=0. */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const weighed: { tag: string; q: number; index: number }[] = [];
  for (const [index, part] of header.slice(0, MAX_HEADER_LENGTH).split(',').slice(0, MAX_LANGUAGES).entries()) {
    const [tag, ...parameters] = part.split(';').map((piece) => piece.trim());
    const qParameter = parameters.find((parameter) => /^q=/i.test(parameter));
    const q = qParameter === undefined ? 1 : Number(qParameter.slice(2));
    if (!tag || tag === '*' || !Number.isFinite(q) || q <= 0) continue;
    try {
      weighed.push({ tag: Intl.getCanonicalLocales(tag)[0], q, index });
    } catch {
      // Not a language tag: skipped, as a browser would never send it.
    }
  }
  return weighed.sort((a, b) => b.q - a.q || a.index - b.index).map(({ tag }) => tag);
}

/** "No linguistic content" (ISO 639-2 `zxx`): a well-formed tag, as the matcher needs, that no one asks for. */
const NO_MATCH = 'zxx';

/** The UI locale closest to what `Accept-Language` asks for (`pt` → `pt-BR`, `de-AT` → `de`), or null for none. */
export function localeOfAcceptLanguage(header: string | undefined): UiLocale | null {
  const wanted = acceptedLanguages(header);
  if (wanted.length === 0) return null;
  // The matcher answers its default for no match: told apart by one that is no UI locale.
  try {
    const best = match(wanted, UI_LOCALES, NO_MATCH, { algorithm: 'best fit' });
    return isUiLocale(best) ? best : null;
  } catch {
    // Every tag was checked well-formed: a header that still upsets the matcher asks for nothing it knows.
    return null;
  }
}

/** What the `pollscope_lang` cookie says, as it says it; null without one. */
function languageCookie(cookies: string | undefined): string | null {
  for (const pair of cookies?.split(';') ?? []) {
    const separator = pair.indexOf('=');
    if (separator <= 0 || pair.slice(0, separator).trim() !== LANGUAGE_COOKIE) continue;
    try {
      return decodeURIComponent(pair.slice(separator + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

/** The locale the `pollscope_lang` cookie names, if it names one of the UI locales. */
export function localeOfCookie(cookies: string | undefined): UiLocale | null {
  const value = languageCookie(cookies)?.toLowerCase();
  return UI_LOCALES.find((locale) => locale.toLowerCase() === value) ?? null;
}

/** Whether the cookie asks for the pseudo-locale, whose catalog only the web app makes. */
export const asksForPseudoLocale = (cookies: string | undefined): boolean => languageCookie(cookies) === PSEUDO_LOCALE;

/** What the rule reads of a request. */
export interface LocaleHints {
  /** The signed-in account's `language`, when there is one. */
  account?: string | null;
  cookie?: string;
  'accept-language'?: string;
}

/** The rule, first match wins: the account's language, the cookie, `Accept-Language`, `en`. */
export function negotiateLocale(hints: LocaleHints): UiLocale {
  if (isUiLocale(hints.account)) return hints.account;
  return localeOfCookie(hints.cookie) ?? localeOfAcceptLanguage(hints['accept-language']) ?? DEFAULT_UI_LOCALE;
}

/** The language a visitor's request is in (no account): a new account's, made by it. */
export const visitorLocale = (headers: { cookie?: string; 'accept-language'?: string }): UiLocale =>
  negotiateLocale({ cookie: headers.cookie, 'accept-language': headers['accept-language'] });

/** A stored `users.language`, as a UI locale (anything else, which the API never stores, as `en`). */
export const accountLocale = (language: string): UiLocale => (isUiLocale(language) ? language : DEFAULT_UI_LOCALE);
