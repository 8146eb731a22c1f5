import type { LanguageMessage } from './messages';

/**
 * Tells the service worker, once one is active, the language the app now speaks, so that the offline page it keeps
 * speaks it too (offline-page.ts). Nothing where the browser has no service workers (an insecure address, tests).
 */
export function tellWorkerLanguage(locale: string): void {
  if (typeof navigator === 'undefined' || !navigator.serviceWorker) return;
  // `ready` settles once a worker is active, which may be never (a page whose worker failed to install).
  void Promise.resolve(navigator.serviceWorker.ready)
    .then((registration) => registration?.active?.postMessage({ type: 'language', locale } satisfies LanguageMessage))
    .catch(() => undefined);
}
