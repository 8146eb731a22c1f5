import { describe, expect, it, vi } from 'vitest';
import { notificationFromPush, openFromNotification, workerTexts } from './notifications';

const ORIGIN = 'https://pollscope.example';
const push = (payload: unknown) => ({ json: () => payload });

/** A window of a browser's: where it is, whether it has the focus and is seen; it records what the worker tells it. */
function aWindow(path: string, { focused = false, visible = false } = {}) {
  const client = {
    url: `${ORIGIN}${path}`,
    focused,
    visibilityState: visible ? 'visible' : 'hidden',
    focus: vi.fn(async () => client),
    postMessage: vi.fn(),
  };
  return client;
}

function aBrowser(windows: ReturnType<typeof aWindow>[]) {
  return { matchAll: vi.fn(async () => windows), openWindow: vi.fn(async () => null) } as unknown as Clients & {
    openWindow: ReturnType<typeof vi.fn>;
  };
}

describe('a pushed notification', () => {
  it('shows the payload’s title and body with the app’s icon, tagged with the notification’s id, and opens its path', () => {
    const shown = notificationFromPush(
      push({
        kind: 'follow',
        title: 'Dan followed you',
        body: 'Dan Brown now follows you.',
        url: '/user/7',
        notification_id: 42,
      }),
      ORIGIN,
    );
    expect(shown).toEqual({
      title: 'Dan followed you',
      options: {
        body: 'Dan Brown now follows you.',
        icon: '/icons/icon-192.png',
        badge: '/icons/badge-96.png',
        tag: '42',
        data: { url: '/user/7' },
      },
    });
  });

  it('still shows a plain notification leading to the notifications screen when the payload cannot be read', () => {
    const unreadable = { json: () => JSON.parse('not json') };
    for (const data of [unreadable, null, push({ title: '', url: 42 })]) {
      const shown = notificationFromPush(data, ORIGIN);
      expect(shown.title).toBe('POLLSCOPE');
      expect(shown.options.body).toBe('You have a new notification.');
      expect(shown.options.data).toEqual({ url: '/notifications' });
    }
  });

  it('never leads off the site', () => {
    const shown = notificationFromPush(
      push({ title: 'Hi', body: 'There', url: 'https://elsewhere.example/phish', notification_id: 1 }),
      ORIGIN,
    );
    expect(shown.options.data).toEqual({ url: '/notifications' });
    expect(
      notificationFromPush(
        push({ title: 'Hi', body: 'There', url: `${ORIGIN}/question/3?from=push#results`, notification_id: 1 }),
        ORIGIN,
      ).options.data,
    ).toEqual({
      url: '/question/3?from=push#results',
    });
  });
});

describe('the worker’s own words', () => {
  /** The Cache API as the page left it: one cache of texts, or nothing. */
  const storage = (kept: unknown) =>
    ({
      open: async () => ({ match: async () => (kept === undefined ? undefined : new Response(JSON.stringify(kept))) }),
    }) as unknown as CacheStorage;

  it('are those the app’s last page left, in its language', async () => {
    const texts = await workerTexts(storage({ pushBody: 'Du hast eine neue Benachrichtigung.' }));
    expect(notificationFromPush(null, ORIGIN, texts).options.body).toBe('Du hast eine neue Benachrichtigung.');
  });

  it('are English while no page has left any, or what it left cannot be read', async () => {
    for (const kept of [undefined, { body: 'wrong shape' }]) {
      const texts = await workerTexts(storage(kept));
      expect(notificationFromPush(null, ORIGIN, texts).options.body).toBe('You have a new notification.');
    }
  });
});

describe('a clicked notification', () => {
  it('brings the focused window of the app forward and tells it where to go', async () => {
    const windows = [aWindow('/trending', { visible: true }), aWindow('/settings', { focused: true, visible: true })];
    const browser = aBrowser(windows);
    await openFromNotification(browser, ORIGIN, '/question/3');
    expect(windows[1].focus).toHaveBeenCalled();
    expect(windows[1].postMessage).toHaveBeenCalledWith({ type: 'navigate', url: '/question/3' });
    expect(windows[0].postMessage).not.toHaveBeenCalled();
    expect(browser.openWindow).not.toHaveBeenCalled();
  });

  it('prefers a visible window to a hidden one, and a window of the app to a shared question’s page', async () => {
    const windows = [
      aWindow('/q/5', { focused: true, visible: true }),
      aWindow('/'),
      aWindow('/notifications', { visible: true }),
    ];
    await openFromNotification(aBrowser(windows), ORIGIN, '/user/7');
    expect(windows[2].postMessage).toHaveBeenCalledWith({ type: 'navigate', url: '/user/7' });
    expect(windows[0].focus).not.toHaveBeenCalled();
    expect(windows[1].focus).not.toHaveBeenCalled();
  });

  it('opens a new window when none of the app is open', async () => {
    const browser = aBrowser([aWindow('/q/5', { focused: true, visible: true })]);
    await openFromNotification(browser, ORIGIN, '/question/3');
    expect(browser.openWindow).toHaveBeenCalledWith('/question/3');
  });
});
