import { useSyncExternalStore } from 'react';
import { createPath } from 'react-router';
import {
  WORKER_TEXTS_CACHE,
  WORKER_TEXTS_KEY,
  type NavigateMessage,
  type WorkerTexts,
} from '../service-worker/messages';
import { onNavigation, type AppHistory } from './navigation';

/** How often a page left open asks whether a new version was deployed; browsers also ask at every visit. */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

let newVersion = false;
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Whether a newer version of the app took over while this page ran an older one: it offers to reload. */
export function useNewVersion(): boolean {
  const current = () => newVersion;
  return useSyncExternalStore(subscribe, current, current);
}

/** Resolves once `worker` has taken over, which it does once it has deleted an older version's files. */
function activated(worker: ServiceWorker | null): Promise<void> {
  return new Promise((resolve) => {
    const settled = () => !worker || worker.state === 'activated' || worker.state === 'redundant';
    if (settled()) resolve();
    else worker!.addEventListener('statechange', () => settled() && resolve());
  });
}

/**
 * Whether the files the worker now keeps are this page's: once it has taken over, only its own
 * version's files are kept, so the page's scripts are all there only when the page is of the
 * worker's version (a changed file has a new name, and so has every chunk that imports it, up to
 * the entry chunk).
 */
async function runsKeptVersion(): Promise<boolean> {
  const scripts = [...document.querySelectorAll<HTMLScriptElement>('script[type="module"][src]')];
  const kept = await Promise.all(scripts.map((script) => caches.match(new URL(script.src).pathname)));
  return kept.every((response) => response !== undefined);
}

/**
 * Registers the service worker (src/service-worker/sw.ts, built to /sw.js; main.tsx starts this
 * once the page has loaded and the browser is idle). A new version, once deployed, takes over at
 * once: a page of an older one then offers to reload, and loads the page afresh at its next
 * navigation instead of asking for files the new deploy no longer has.
 */
export function startServiceWorker(history: Pick<AppHistory, 'push'>): void {
  if (!('serviceWorker' in navigator)) return;
  const { serviceWorker } = navigator;
  // A new version's worker controls the page as soon as it starts activating, before it has deleted the older files.
  serviceWorker.addEventListener('controllerchange', () => {
    void activated(serviceWorker.controller)
      .then(runsKeptVersion)
      .then((current) => {
        if (current || newVersion) return;
        newVersion = true;
        listeners.forEach((listener) => listener());
      });
  });
  serviceWorker.addEventListener('message', (event: MessageEvent<NavigateMessage | undefined>) => {
    if (event.data?.type === 'navigate') history.push(event.data.url);
  });
  // Messages sent before the listener was there (a notification clicked as the page opened) wait until now.
  serviceWorker.startMessages();
  onNavigation((location) => {
    if (newVersion) window.location.assign(createPath(location));
  });
  serviceWorker
    .register('/sw.js', { scope: '/' })
    .then((registration) => setInterval(() => void registration.update().catch(() => undefined), UPDATE_CHECK_MS))
    // Without a worker the app works as before, only not offline.
    .catch(() => undefined);
}

/**
 * Leaves the service worker the words it shows of its own, in the language on screen (it has no
 * catalogs: service-worker/messages.ts). Where the browser has no Cache API there is no worker either.
 */
export function keepWorkerTexts(texts: WorkerTexts): void {
  if (typeof caches === 'undefined') return;
  void caches
    .open(WORKER_TEXTS_CACHE)
    .then((cache) =>
      cache.put(
        WORKER_TEXTS_KEY,
        new Response(JSON.stringify(texts), { headers: { 'Content-Type': 'application/json' } }),
      ),
    )
    // Private windows may refuse storage: the worker then says it in English.
    .catch(() => undefined);
}
