import type en from './catalogs/en.json';
import type { Locale } from './locales';

/** A message's id: one of the English catalog's, which every other catalog has too. */
export type MessageId = keyof typeof en;

/** A catalog: each message id with its ICU MessageFormat text. */
export type Messages = Record<MessageId, string>;

/**
 * The catalogs other than English, each a file of its own loaded on first use, so that the first
 * screen carries none of them. English comes with the frame (i18n-provider.tsx).
 */
const loaders: Record<Exclude<Locale, 'en'>, () => Promise<{ default: Messages }>> = {
  de: () => import('./catalogs/de.json'),
  fr: () => import('./catalogs/fr.json'),
  es: () => import('./catalogs/es.json'),
  it: () => import('./catalogs/it.json'),
  'pt-BR': () => import('./catalogs/pt-BR.json'),
  ja: () => import('./catalogs/ja.json'),
  ar: () => import('./catalogs/ar.json'),
};

const loaded = new Map<Locale, Messages>();
const loading = new Map<Locale, Promise<Messages>>();

/** A catalog already here, if it is. */
export function loadedMessages(locale: Locale): Messages | undefined {
  return loaded.get(locale);
}

/** A locale's catalog, asked for once: the same promise for every caller (React's `use` needs one). */
export function loadMessages(locale: Exclude<Locale, 'en'>): Promise<Messages> {
  let promise = loading.get(locale);
  if (!promise) {
    promise = loaders[locale]().then(
      ({ default: messages }) => {
        loaded.set(locale, messages);
        return messages;
      },
      (error: unknown) => {
        // A failed download (offline, a new version deployed) may succeed when asked again.
        loading.delete(locale);
        throw error;
      },
    );
    loading.set(locale, promise);
  }
  return promise;
}

/** Starts the download of a locale's catalog, if it is not English, without waiting for it. */
export function preloadMessages(locale: Locale): Promise<unknown> {
  return locale === 'en' ? Promise.resolve() : loadMessages(locale).catch(() => undefined);
}
