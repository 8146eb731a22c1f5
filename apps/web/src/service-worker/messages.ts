/**
 * What the service worker tells a window of the app: open `url` as the app's own navigation
 * would (a clicked notification). Shared by the worker and the page, so it names no type of either.
 */
export interface NavigateMessage {
  type: 'navigate';
  url: string;
}

/**
 * The words the worker shows of its own (a push it cannot read), in the language of the app's
 * last page: the page keeps them in the Cache API, which the worker reads when it needs them (the
 * worker has no catalogs). The cache's name is outside the worker's versions ("pollscope-…"),
 * which a new version deletes.
 */
export interface WorkerTexts {
  /** The body of a notification whose push could not be read. */
  pushBody: string;
}

export const WORKER_TEXTS_CACHE = 'pollscope:texts';
export const WORKER_TEXTS_KEY = '/worker-texts.json';

/**
 * What a page of the app tells the worker: the language it now speaks (at its start, and at each switch), which the
 * offline page the worker keeps follows (offline-page.ts).
 */
export interface LanguageMessage {
  type: 'language';
  locale: string;
}
