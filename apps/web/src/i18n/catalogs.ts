import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type en from './catalogs/en.json';
import type { AppLocale } from './locales';

/** A message's id: one of the English catalog's, which every other catalog has too. */
export type MessageId = keyof typeof en;

/** A catalog: each message id with its ICU MessageFormat text. */
export type Messages = Record<MessageId, string>;

/** A catalog as react-intl takes it: texts, or messages parsed already (the pseudo-locale's). */
export type LoadedMessages = Record<MessageId, string> | Record<MessageId, MessageFormatElement[]>;

/**
 * Every catalog, English too, is a file of its own loaded on first use: a visitor downloads the
 * one of their language and no other, and the first screen's code carries none.
 */
const loaders: Record<AppLocale, () => Promise<{ default: LoadedMessages }>> = {
  en: () => import('./catalogs/en.json'),
  'en-XA': async () => {
    const { pseudoLocalized } = await import('./pseudo-locale');
    // The same ids as English's, each parsed.
    return { default: (await pseudoLocalized()) as Record<MessageId, MessageFormatElement[]> };
  },
  de: () => import('./catalogs/de.json'),
  fr: () => import('./catalogs/fr.json'),
  es: () => import('./catalogs/es.json'),
  it: () => import('./catalogs/it.json'),
  'pt-BR': () => import('./catalogs/pt-BR.json'),
  ja: () => import('./catalogs/ja.json'),
  ar: () => import('./catalogs/ar.json'),
};

const loaded = new Map<AppLocale, LoadedMessages>();
const loading = new Map<AppLocale, Promise<LoadedMessages>>();

/** A catalog already here, if it is. */
export function loadedMessages(locale: AppLocale): LoadedMessages | undefined {
  return loaded.get(locale);
}

/** A locale's catalog, asked for once: the same promise for every caller. */
export function loadMessages(locale: AppLocale): Promise<LoadedMessages> {
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

/** Starts the download of a locale's catalog without waiting for it. */
export function preloadMessages(locale: AppLocale): Promise<unknown> {
  return loadMessages(locale).catch(() => undefined);
}
