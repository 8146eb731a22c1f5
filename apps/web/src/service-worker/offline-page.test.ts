import { afterEach, describe, expect, it, vi } from 'vitest';
import { isLanguageMessage, OFFLINE_PAGE, offlinePageFollower } from './offline-page';
import { tellWorkerLanguage } from './tell-worker';

/** The offline page as the server sends it in `locale` (modules/web-app/app-shell-files.ts): its heading, and its language named. */
const pageIn = (locale: string, status = 200) =>
  new Response(`<html lang="${locale}"><h1>${locale}</h1></html>`, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Language': locale },
  });

/** The worker's cache of its version, holding the offline page it kept at install. */
function aCache(keptIn: string) {
  const files = new Map([[OFFLINE_PAGE, pageIn(keptIn)]]);
  const cache = {
    match: async (url: string) => files.get(url)?.clone(),
    put: async (url: string, response: Response) => void files.set(url, response),
  } as unknown as Cache;
  /** The language of the offline page the worker would show now. */
  const shownIn = async () => (await files.get(OFFLINE_PAGE)!.clone().text()).match(/<h1>(.*)<\/h1>/)?.[1];
  return { open: async () => cache, shownIn };
}

/** The server: the offline page in the language asked for by `Accept-Language`, after `delays[n]` ms for the n-th request. */
function aServer(delays: number[] = []) {
  return vi.fn(async (_url: string, init: RequestInit) => {
    const delay = delays.shift() ?? 0;
    if (delay) await new Promise((resolve) => setTimeout(resolve, delay));
    return pageIn(new Headers(init.headers).get('Accept-Language')!);
  });
}

describe('the offline page the worker keeps', () => {
  it('follows the language the app switches to: fetched anew in that language alone, without cookies', async () => {
    const cache = aCache('en');
    const server = aServer();
    const follow = offlinePageFollower(cache.open, server);
    await follow('fr');
    expect(await cache.shownIn()).toBe('fr');
    expect(server).toHaveBeenCalledTimes(1);
    const [url, init] = server.mock.calls[0];
    expect(url).toBe('/offline.html');
    // The account's language, or the cookie's, may still be the old one while the switch is being saved.
    expect(init.credentials).toBe('omit');
    expect(new Headers(init.headers).get('Accept-Language')).toBe('fr');
    expect(init.cache).toBe('no-cache');
  });

  it('is not fetched again while it speaks the language of the page', async () => {
    const cache = aCache('ja');
    const server = aServer();
    await offlinePageFollower(cache.open, server)('ja');
    expect(server).not.toHaveBeenCalled();
    expect(await cache.shownIn()).toBe('ja');
  });

  it('ends in the language switched to last, whichever answer comes first', async () => {
    const cache = aCache('en');
    // German is asked for first and answered last.
    const follow = offlinePageFollower(cache.open, aServer([50, 0]));
    await Promise.all([follow('de'), follow('ar')]);
    expect(await cache.shownIn()).toBe('ar');
  });

  it('stays as it was when the new one cannot be fetched, and is fetched at the next page', async () => {
    const cache = aCache('en');
    const offline = vi.fn(async () => {
      throw new TypeError('Failed to fetch');
    });
    const follow = offlinePageFollower(cache.open, offline);
    await expect(follow('it')).resolves.toBeUndefined();
    await offlinePageFollower(cache.open, async () => pageIn('it', 503))('it');
    expect(await cache.shownIn()).toBe('en');
    await offlinePageFollower(cache.open, aServer())('it');
    expect(await cache.shownIn()).toBe('it');
  });
});

describe('a page’s message of its language', () => {
  it('is a language tag the app names, and nothing else', () => {
    for (const locale of ['fr', 'pt-BR', 'en-XA']) expect(isLanguageMessage({ type: 'language', locale })).toBe(true);
    for (const data of [
      null,
      'fr',
      { type: 'navigate', url: '/' },
      { type: 'language' },
      { type: 'language', locale: 42 },
      { type: 'language', locale: 'fr\r\nX-Injected: 1' },
      { type: 'language', locale: '' },
    ])
      expect(isLanguageMessage(data)).toBe(false);
  });

  afterEach(() => {
    delete (navigator as { serviceWorker?: unknown }).serviceWorker;
  });

  it('goes to the active worker once there is one, and nowhere where the browser has none', async () => {
    expect(() => tellWorkerLanguage('de')).not.toThrow();
    const postMessage = vi.fn();
    Object.defineProperty(navigator, 'serviceWorker', {
      value: { ready: Promise.resolve({ active: { postMessage } }) },
      configurable: true,
    });
    tellWorkerLanguage('pt-BR');
    await vi.waitFor(() => expect(postMessage).toHaveBeenCalledWith({ type: 'language', locale: 'pt-BR' }));
  });
});
