import type { ApiPath } from './api-path';
import { authorizationHeader } from './auth-token';

/** A request started before its screen asked, and used only this soon after: an older one may be stale. */
const FRESH_MS = 10_000;

const started = new Map<string, { at: number; response: Promise<Response> }>();
/** Paths the app has asked for since the page loaded: their data is in its cache, or soon will be. */
const asked = new Set<string>();

/**
 * The GETs the page's inline first script started (src/early-data.ts), left for the app, which takes them over once.
 */
interface StartedByPage {
  at: number;
  responses: Record<string, Promise<Response>>;
}

declare global {
  interface Window {
    pollscopeStartedByPage?: StartedByPage;
  }
}

function startGet(path: string): Promise<Response> {
  const response = fetch(path, { headers: { Accept: 'application/json', ...authorizationHeader() } });
  // A failure is the screen's to report, when it picks the response up.
  response.catch(() => undefined);
  return response;
}

/**
 * Starts GETs of `paths` from the page's first script, before any of the app's code has arrived,
 * and leaves them where the app's first use of this module finds them and takes them as its own.
 */
export function startBeforeApp(paths: readonly string[]): void {
  window.pollscopeStartedByPage = {
    at: Date.now(),
    responses: Object.fromEntries(paths.map((path) => [path, startGet(path)])),
  };
}

/** Takes over what the page's first script started, the first time the app looks at its requests. */
function takeOverStartedByPage(): void {
  const byPage = window.pollscopeStartedByPage;
  if (!byPage) return;
  delete window.pollscopeStartedByPage;
  for (const [path, response] of Object.entries(byPage.responses)) {
    asked.add(path);
    started.set(path, { at: byPage.at, response });
  }
}

/**
 * Starts a GET of `path` now, for a screen whose code is still on its way: a route's loader calls
 * it, and the screen's own request (`takePrefetched`) picks the response up. Only for a path not
 * asked for before: once the screen's code is here, its request starts as soon as it renders, and
 * data already cached may not be asked for again at all.
 */
export function prefetch(path: string): void {
  takeOverStartedByPage();
  if (asked.has(path)) return;
  asked.add(path);
  started.set(path, { at: Date.now(), response: startGet(path) });
}

/** The app asks for `path`: the response a loader started for it moments ago, if there is one. */
export function takePrefetched(path: string): Promise<Response> | undefined {
  takeOverStartedByPage();
  asked.add(path);
  const early = started.get(path);
  started.delete(path);
  return early && Date.now() - early.at < FRESH_MS ? early.response : undefined;
}

/**
 * Hands `use` the body of the request started for `path`, once it has answered well, and takes
 * the request from the screen's own call, unless that call took it first: for putting the data
 * in the cache before the screen renders, where its call would have come one render later.
 * Resolves once that is settled.
 */
export async function whenPrefetched<T>(path: ApiPath<T>, use: (body: T) => void): Promise<void> {
  takeOverStartedByPage();
  const early = started.get(path);
  if (!early) return;
  await early.response
    .then((response) => (response.ok ? (response.clone().json() as Promise<T>) : undefined))
    .then((body) => {
      // Checked and taken at once: the screen's call either has this request's answer or asks for nothing.
      if (body === undefined || started.get(path) !== early) return;
      started.delete(path);
      use(body);
    })
    // Failed, or already read by the screen's own call: that call reports it, or has the data.
    .catch(() => undefined);
}

/** Forgets every request started or asked for (tests start each from a fresh page). */
export function forgetPrefetched(): void {
  delete window.pollscopeStartedByPage;
  started.clear();
  asked.clear();
}
