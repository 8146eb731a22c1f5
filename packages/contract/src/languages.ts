import { z } from 'zod';

/**
 * The languages of the interface (CONTRACT.md §7, Languages): a person's `language` is one of
 * them, and so is the locale the server and the web app settle on for every request.
 */
export const UI_LOCALES = ['en', 'de', 'fr', 'es', 'it', 'pt-BR', 'ja', 'ar'] as const;
export type UiLocale = (typeof UI_LOCALES)[number];

/** The last resort of the rule, and the language of the spec's exact texts. */
export const DEFAULT_UI_LOCALE: UiLocale = 'en';

/** The locales written right to left: their pages carry `dir="rtl"`. */
export const RIGHT_TO_LEFT_LOCALES: ReadonlySet<UiLocale> = new Set<UiLocale>(['ar']);

export function directionOf(locale: UiLocale): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT_LOCALES.has(locale) ? 'rtl' : 'ltr';
}

export function isUiLocale(value: unknown): value is UiLocale {
  return typeof value === 'string' && (UI_LOCALES as readonly string[]).includes(value);
}

/** The cookie the language switcher keeps a visitor's choice in: a year, `SameSite=Lax`, read by the server too. */
export const LANGUAGE_COOKIE = 'pollscope_lang';

/**
 * The pseudo-locale for tests (docs/i18n.md): English accented and lengthened, made by the web app from its English
 * catalog. Chosen only by the cookie; never offered, never kept on an account.
 */
export const PSEUDO_LOCALE = 'en-XA';

export const uiLocaleSchema = z.enum(UI_LOCALES, { error: `Pick one of ${UI_LOCALES.join(', ')}` });

/** The two-letter codes of ISO 639-1 (without the withdrawn `bh`, `iw`, `in`, `ji`, `jw`, `mo` and `sh`). */
export const ISO_639_1_CODES: ReadonlySet<string> = new Set(
  (
    'aa ab ae af ak am an ar as av ay az ba be bg bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de dv dz ee el en ' +
    'eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja ' +
    'jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb ' +
    'nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq ' +
    'sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu'
  ).split(' '),
);

/** A language a question is written in: an ISO 639-1 code, any of them, not only the UI locales. */
export const questionLanguageSchema = z
  .string()
  .refine((code) => ISO_639_1_CODES.has(code), { message: 'Use ISO 639-1 codes, such as "de" or "ja"' });

/**
 * The languages of the questions a person wants to see, each once in the order given; `null` for all. An empty list
 * would show nothing at all, and is refused.
 */
export const questionLanguagesSchema = z
  .array(questionLanguageSchema)
  .min(1, 'Pick at least one language, or null for all')
  .max(ISO_639_1_CODES.size, `At most ${ISO_639_1_CODES.size} languages`)
  .transform((codes) => [...new Set(codes)])
  .nullable();
