import type { MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type en from './catalogs/en.json';
import { trackedForUse } from '../lib/tracked-promise';
import { pseudoLocale, type AppLocale } from './locales';

/** A message's id: one of the English catalog's, which every other catalog has too. */
export type MessageId = keyof typeof en;

/** A catalog: each message id with its ICU MessageFormat text. */
export type Messages = Record<MessageId, string>;

/** A catalog as react-intl takes it: its messages parsed (by the build, or the pseudo-locale's), or texts. */
export type LoadedMessages = Record<MessageId, string> | Record<MessageId, MessageFormatElement[]>;

type Part = 'first' | 'rest';

/** Each catalog's parts by its file (`./catalogs/de.json`), each loaded on first use (build/catalogs.ts). */
const partFiles: Record<Part, Record<string, () => Promise<LoadedMessages>>> = {
  first: import.meta.glob<LoadedMessages>('./catalogs/*.json', { query: { part: 'first' }, import: 'default' }),
  rest: import.meta.glob<LoadedMessages>('./catalogs/*.json', { query: { part: 'rest' }, import: 'default' }),
};

/**
 * A part of a locale's catalog. Every catalog, English too, is in files of its own: a visitor
 * downloads their language's and no other, its first part (the texts of the frame and the first
 * screens) beside the frame's code, and the rest with the first other screen they open.
 */
async function loadPart(locale: AppLocale, part: Part): Promise<LoadedMessages> {
  if (locale !== pseudoLocale) return partFiles[part][`./catalogs/${locale}.json`]();
  if (part === 'rest') return {} as LoadedMessages;
  const { pseudoLocalized } = await import('./pseudo-locale');
  // The same ids as English's, each parsed.
  return (await pseudoLocalized()) as Record<MessageId, MessageFormatElement[]>;
}

/** Each part, and each whole catalog, asked for once: the same promise for every caller. */
const loading = new Map<string, Promise<LoadedMessages>>();
const loaded = new Map<string, LoadedMessages>();

function once(key: string, load: () => Promise<LoadedMessages>): Promise<LoadedMessages> {
  let promise = loading.get(key);
  if (!promise) {
    promise = trackedForUse(
      load().then(
        (messages) => {
          loaded.set(key, messages);
          return messages;
        },
        (error: unknown) => {
          // A failed download (offline, a new version deployed) may succeed when asked again.
          loading.delete(key);
          throw error;
        },
      ),
    );
    loading.set(key, promise);
  }
  return promise;
}

const firstPart = (locale: AppLocale) => once(`${locale} first`, () => loadPart(locale, 'first'));

/** A locale's whole catalog, if it is here. */
export function loadedMessages(locale: AppLocale): LoadedMessages | undefined {
  return loaded.get(locale);
}

/** What is here of a locale's catalog: the whole, or its first part. */
export function loadedFirstMessages(locale: AppLocale): LoadedMessages | undefined {
  return loaded.get(locale) ?? loaded.get(`${locale} first`);
}

/** A locale's whole catalog: its first part (the one downloaded already, if it was) and the rest. */
export function loadMessages(locale: AppLocale): Promise<LoadedMessages> {
  return once(locale, async () => {
    const [first, rest] = await Promise.all([firstPart(locale), loadPart(locale, 'rest')]);
    return { ...first, ...rest } as LoadedMessages;
  });
}

/** Starts the download of the first part of a locale's catalog without waiting for it. */
export function preloadFirstMessages(locale: AppLocale): Promise<unknown> {
  return firstPart(locale).catch(() => undefined);
}

/** Starts the download of a locale's whole catalog without waiting for it. */
export function preloadMessages(locale: AppLocale): Promise<unknown> {
  return loadMessages(locale).catch(() => undefined);
}
