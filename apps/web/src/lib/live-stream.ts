import { endSessionIfRejected } from './api-client';
import { authorizationHeader } from './auth-token';
import { readEventStream, type ServerEvent } from './event-stream';

/**
 * Streams open at once in this tab. A browser opens at most six HTTP/1.1 connections to a host,
 * and each stream holds one for as long as it is open; the rest stay free for the API's calls.
 * The header's unread count holds one for the whole visit, which leaves two for results on
 * screen. Further streams wait for a free place.
 */
export const MAX_OPEN_STREAMS = 3;
/** The first wait before reconnecting a stream that ended, until the server names its own. */
export const FIRST_RETRY_MS = 1000;
/** Repeated failures double the wait, up to this. */
export const MAX_RETRY_MS = 30_000;

let openStreams = 0;
const waitingForPlace: (() => void)[] = [];

/** Runs `open` once a place among the open streams is free; the returned function gives the place up (or the wait). */
function takePlace(open: () => void): () => void {
  let holding = false;
  let released = false;
  const grant = () => {
    holding = true;
    openStreams += 1;
    open();
  };
  if (openStreams < MAX_OPEN_STREAMS) grant();
  else waitingForPlace.push(grant);
  return () => {
    if (released) return;
    released = true;
    if (!holding) {
      waitingForPlace.splice(waitingForPlace.indexOf(grant), 1);
      return;
    }
    openStreams -= 1;
    waitingForPlace.shift()?.();
  };
}

/** A 4xx other than these will be the same when asked again. */
const RETRYABLE_STATUSES = new Set([408, 429]);

/**
 * Follows a server-sent event stream of the API with the stored token (EventSource cannot send
 * one). A stream that ends or fails is opened again after a wait that doubles with each failure
 * in a row; a refused token ends the session, and another refusal (403, 404) ends the watch. While
 * the tab is hidden the stream is closed, and it opens again when the tab is shown.
 * Returns the function that stops watching.
 */
export function watchEventStream(path: string, onEvent: (event: ServerEvent) => void): () => void {
  let stopped = false;
  let retryMs = FIRST_RETRY_MS;
  let failuresInARow = 0;
  let connection: AbortController | null = null;
  let releasePlace: (() => void) | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  function disconnect() {
    clearTimeout(reconnectTimer);
    connection?.abort();
    connection = null;
    releasePlace?.();
    releasePlace = null;
  }

  function connect() {
    disconnect();
    if (stopped || document.visibilityState === 'hidden') return;
    releasePlace = takePlace(() => void follow());
  }

  function reconnectLater() {
    const wait = Math.min(MAX_RETRY_MS, retryMs * 2 ** failuresInARow);
    failuresInARow += 1;
    disconnect();
    reconnectTimer = setTimeout(connect, wait);
  }

  async function follow() {
    const controller = new AbortController();
    connection = controller;
    try {
      const response = await fetch(path, {
        headers: { Accept: 'text/event-stream', ...authorizationHeader() },
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        const final =
          endSessionIfRejected(response) ||
          (response.status >= 400 && response.status < 500 && !RETRYABLE_STATUSES.has(response.status));
        if (final) {
          stop();
          return;
        }
      } else {
        await readEventStream(response.body, {
          onEvent: (event) => {
            failuresInARow = 0;
            onEvent(event);
          },
          onRetry: (milliseconds) => {
            retryMs = milliseconds;
          },
        });
      }
    } catch {
      // Cut off or never reached: the wait below applies, unless this watch was closed on purpose.
    }
    if (!controller.signal.aborted) reconnectLater();
  }

  function stop() {
    stopped = true;
    disconnect();
    document.removeEventListener('visibilitychange', onVisibilityChange);
  }

  /** Hidden, the tab lets go of its stream (connect closes it); shown again, it opens it at once. */
  function onVisibilityChange() {
    failuresInARow = 0;
    connect();
  }

  document.addEventListener('visibilitychange', onVisibilityChange);
  connect();
  return stop;
}
