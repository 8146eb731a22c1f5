/**
 * The service worker, built to /sw.js (build/service-worker.ts): it keeps the app's files,
 * shows a page that says the device is offline when a page cannot be loaded, and shows the
 * notifications pushed to this device. Nothing a person owns is kept: the API's answers and the
 * pages the server renders (a shared question's, /q/{id}) pass through as if it were not there.
 */
import { notificationFromPush, openFromNotification, workerTexts } from './notifications';
import { isLanguageMessage, OFFLINE_PAGE, offlinePageFollower } from './offline-page';

declare const self: ServiceWorkerGlobalScope;

/** Written in by the build: the files to keep, and a version that changes whenever one of them does. */
declare const __PRECACHE__: { version: string; urls: string[] };

const precache = __PRECACHE__;
const CACHE_PREFIX = 'pollscope-';
const CACHE = `${CACHE_PREFIX}${precache.version}`;
const kept = new Set(precache.urls);
/** Files fetched at once while installing: the page's own requests share the browser's few connections to the site. */
const INSTALL_LANES = 2;

/** A file whose name carries a hash of its content is the same file in every version that names it. */
const isHashed = (url: string) => url.startsWith('/assets/');

async function keepFiles(): Promise<void> {
  const cache = await caches.open(CACHE);
  const waiting = [...precache.urls];
  const lane = async () => {
    for (let url = waiting.shift(); url !== undefined; url = waiting.shift()) {
      // Kept by an earlier version already, or fetched; the others are revalidated, so that no stale copy is kept.
      const response =
        (isHashed(url) && (await caches.match(url))) ||
        (await fetch(url, { cache: isHashed(url) ? 'default' : 'no-cache' }));
      if (!response.ok) throw new Error(`Cannot keep ${url}: ${response.status}`);
      await cache.put(url, response);
    }
  };
  await Promise.all(Array.from({ length: INSTALL_LANES }, lane));
}

self.addEventListener('install', (event) => {
  // A new version takes over at once: the pages of the old one learn it and reload (lib/service-worker.ts).
  event.waitUntil(keepFiles().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // The old files go before the worker counts as activated: a page waits for that to tell from the cache whether it
      // is of this version.
      for (const name of await caches.keys())
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
      // The page's request starts while the worker is still waking up, rather than after.
      await self.registration.navigationPreload?.enable();
      await self.clients.claim();
    })(),
  );
});

/** A page from the network (the server renders or revalidates every one), or the offline page when there is none. */
async function navigation(event: FetchEvent): Promise<Response> {
  try {
    const preloaded = (await event.preloadResponse) as Response | undefined;
    return preloaded ?? (await fetch(event.request));
  } catch {
    return (await caches.match(OFFLINE_PAGE, { cacheName: CACHE })) ?? Response.error();
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || url.pathname.startsWith('/api/')) return;
  if (request.mode === 'navigate') event.respondWith(navigation(event));
  else if (kept.has(url.pathname) && url.search === '')
    event.respondWith(caches.match(url.pathname, { cacheName: CACHE }).then((response) => response ?? fetch(request)));
});

const followLanguage = offlinePageFollower(() => caches.open(CACHE));

// A page says the language it speaks: the offline page follows it.
self.addEventListener('message', (event) => {
  if (isLanguageMessage(event.data)) event.waitUntil(followLanguage(event.data.locale));
});

self.addEventListener('push', (event) => {
  event.waitUntil(
    workerTexts(caches).then((texts) => {
      const { title, options } = notificationFromPush(event.data, self.location.origin, texts);
      return self.registration.showNotification(title, options);
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const { url } = event.notification.data as { url: string };
  event.waitUntil(openFromNotification(self.clients, self.location.origin, url));
});
