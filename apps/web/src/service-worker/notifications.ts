import type { PushPayload } from '@pollscope/contract';
import { WORKER_TEXTS_CACHE, WORKER_TEXTS_KEY, type NavigateMessage, type WorkerTexts } from './messages';

/** Where a notification whose push named no place of this site leads. */
const NOTIFICATIONS_PAGE = '/notifications';

/** Said until a page of the app has given the worker its words in the person's language: the English catalog's. */
const ENGLISH_TEXTS: WorkerTexts = { pushBody: 'You have a new notification.' };

/** The worker's own words in the language of the app's last page (service-worker/messages.ts), else English. */
export async function workerTexts(storage: CacheStorage): Promise<WorkerTexts> {
  try {
    const kept = await (await storage.open(WORKER_TEXTS_CACHE)).match(WORKER_TEXTS_KEY);
    const texts: unknown = kept && (await kept.json());
    if (texts && typeof texts === 'object' && typeof (texts as WorkerTexts).pushBody === 'string')
      return texts as WorkerTexts;
  } catch {
    // Nothing kept, or not readable: English.
  }
  return ENGLISH_TEXTS;
}

/**
 * The notification a push shows. A push must show one (the subscription promised the browser
 * that every push is visible), so a payload that cannot be read still shows a plain one that
 * leads to the notifications screen, in the words the page left (`workerTexts`).
 */
export function notificationFromPush(
  data: { json(): unknown } | null,
  origin: string,
  texts: WorkerTexts = ENGLISH_TEXTS,
): { title: string; options: NotificationOptions } {
  let payload: Partial<PushPayload> = {};
  try {
    const parsed = data?.json();
    if (parsed && typeof parsed === 'object') payload = parsed as Partial<PushPayload>;
  } catch {
    // Not JSON: the plain notification below.
  }
  const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);
  return {
    title: text(payload.title) ?? 'POLLSCOPE',
    options: {
      body: text(payload.body) ?? texts.pushBody,
      icon: '/icons/icon-192.png',
      badge: '/icons/badge-96.png',
      // One notification per notification of the app: the same one pushed again replaces it.
      tag: typeof payload.notification_id === 'number' ? String(payload.notification_id) : undefined,
      data: { url: pathOnSite(payload.url, origin) },
    },
  };
}

/** The path, query and fragment of `url` when it is a place on this site; otherwise the notifications screen. */
function pathOnSite(url: unknown, origin: string): string {
  if (typeof url !== 'string') return NOTIFICATIONS_PAGE;
  try {
    const target = new URL(url, origin);
    return target.origin === origin ? `${target.pathname}${target.search}${target.hash}` : NOTIFICATIONS_PAGE;
  } catch {
    return NOTIFICATIONS_PAGE;
  }
}

/**
 * A window showing the app itself, rather than a page the server renders (a shared question's, the API's documents).
 */
function showsTheApp(client: WindowClient, origin: string): boolean {
  const { origin: clientOrigin, pathname } = new URL(client.url);
  return clientOrigin === origin && !pathname.startsWith('/q/') && !pathname.startsWith('/api/');
}

/**
 * Opens what a clicked notification points to: in a window of the app already open (the focused
 * one, else a visible one, else any), brought to the front and told to go there without
 * reloading; in a new window when none is open.
 */
export async function openFromNotification(clients: Clients, origin: string, path: string): Promise<void> {
  const windows = (await clients.matchAll({ type: 'window', includeUncontrolled: true })).filter((client) =>
    showsTheApp(client, origin),
  );
  const chosen =
    windows.find((client) => client.focused) ??
    windows.find((client) => client.visibilityState === 'visible') ??
    windows[0];
  if (!chosen) {
    await clients.openWindow(path);
    return;
  }
  const focused = await chosen.focus();
  focused.postMessage({ type: 'navigate', url: path } satisfies NavigateMessage);
}
