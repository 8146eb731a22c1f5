import { api } from '@pollscope/contract';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { PushSwitch } from './push-switch';

/** The server's public key as the API sends it (base64url), and the bytes the Push API must be given. */
const SERVER_KEY = 'BAECAwQF-_8';
const SERVER_KEY_BYTES = [4, 1, 2, 3, 4, 5, 251, 255];
const ENDPOINT = 'https://push.example.net/send/device-1';

/** A browser with the Push API: its notification permission, and the app's service worker with its push manager. */
function stubBrowser({
  permission = 'default' as NotificationPermission,
  answer = 'granted' as NotificationPermission,
  subscribed = false,
  push = true,
} = {}) {
  let subscription: PushSubscription | null = null;
  const makeSubscription = (key: ArrayBuffer) =>
    ({
      endpoint: ENDPOINT,
      options: { applicationServerKey: key, userVisibleOnly: true },
      toJSON: () => ({
        endpoint: ENDPOINT,
        expirationTime: null,
        keys: { p256dh: 'device-public-key', auth: 'device-secret' },
      }),
      unsubscribe: vi.fn(async () => {
        subscription = null;
        return true;
      }),
    }) as unknown as PushSubscription;
  if (subscribed) subscription = makeSubscription(new Uint8Array(SERVER_KEY_BYTES).buffer);
  const pushManager = {
    getSubscription: vi.fn(async () => subscription),
    subscribe: vi.fn(async (options: PushSubscriptionOptionsInit) => {
      subscription = makeSubscription((options.applicationServerKey as Uint8Array<ArrayBuffer>).buffer);
      return subscription;
    }),
  };
  const notification = {
    permission,
    requestPermission: vi.fn(async () => {
      notification.permission = answer;
      return answer;
    }),
  };
  vi.stubGlobal('Notification', notification);
  if (push) vi.stubGlobal('PushManager', class {});
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { getRegistration: async () => ({ pushManager }) },
  });
  return { notification, pushManager, current: () => subscription };
}

/** The API as the server answers: its key, and 201 (or a refusal) and 204 for a subscription made and ended. */
function stubServer({ saved = true } = {}) {
  const server = stubApi();
  server.on('GET /api/push/key/', { body: { key: SERVER_KEY } });
  server.on(
    'POST /api/push/subscriptions/',
    saved ? { status: 201, body: null } : { status: 400, body: { message: 'Refused' } },
  );
  server.on('DELETE /api/push/subscriptions/', { status: 204 });
  return server;
}

const theSwitch = () => screen.getByRole('switch', { name: 'Push notifications on this device' });

afterEach(() => {
  Reflect.deleteProperty(navigator, 'serviceWorker');
  vi.unstubAllGlobals();
});

describe('PushSwitch', () => {
  it('shows push off without asking anything, and asks for permission only once switched on', async () => {
    const { notification, pushManager } = stubBrowser();
    const { requests } = stubServer();
    const { user } = renderScreen(<PushSwitch />);
    expect(await screen.findByText(/Get your notifications on this device/)).toBeInTheDocument();
    expect(theSwitch()).not.toBeChecked();
    expect(theSwitch()).toBeEnabled();
    expect(notification.requestPermission).not.toHaveBeenCalled();
    expect(requests).toEqual([]);

    await user.click(theSwitch());
    expect(await screen.findByText(/Your notifications appear on this device/)).toBeInTheDocument();
    expect(theSwitch()).toBeChecked();
    expect(notification.requestPermission).toHaveBeenCalledTimes(1);
    expect(pushManager.subscribe).toHaveBeenCalledTimes(1);
    const options = pushManager.subscribe.mock.calls[0][0];
    expect(options.userVisibleOnly).toBe(true);
    expect([...(options.applicationServerKey as Uint8Array)]).toEqual(SERVER_KEY_BYTES);
    expect(requests.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'GET', path: api.pushKey, body: undefined },
      {
        method: 'POST',
        path: api.pushSubscriptions,
        body: { endpoint: ENDPOINT, keys: { p256dh: 'device-public-key', auth: 'device-secret' } },
      },
    ]);
  });

  it('ends the device’s subscription and tells the server when switched off, asking nothing', async () => {
    const { notification, current } = stubBrowser({ permission: 'granted', subscribed: true });
    const { requests } = stubServer();
    const { user } = renderScreen(<PushSwitch />);
    expect(await screen.findByText(/Your notifications appear on this device/)).toBeInTheDocument();
    expect(theSwitch()).toBeChecked();
    const subscription = current()!;

    await user.click(theSwitch());
    expect(await screen.findByText(/Get your notifications on this device/)).toBeInTheDocument();
    expect(theSwitch()).not.toBeChecked();
    expect(subscription.unsubscribe).toHaveBeenCalledTimes(1);
    expect(requests.map(({ method, path, body }) => ({ method, path, body }))).toEqual([
      { method: 'DELETE', path: api.pushSubscriptions, body: { endpoint: ENDPOINT } },
    ]);
    expect(notification.requestPermission).not.toHaveBeenCalled();
  });

  it('stays off and says how to allow notifications when the person blocks them at the browser’s question', async () => {
    const { pushManager } = stubBrowser({ answer: 'denied' });
    const { requests } = stubServer();
    const { user } = renderScreen(<PushSwitch />);
    await user.click(await screen.findByRole('switch', { name: 'Push notifications on this device' }));
    expect(await screen.findByText(/Notifications are blocked for this site/)).toBeInTheDocument();
    expect(theSwitch()).not.toBeChecked();
    expect(theSwitch()).toBeDisabled();
    expect(pushManager.subscribe).not.toHaveBeenCalled();
    expect(requests).toEqual([]);
  });

  it('cannot be switched on where notifications were blocked before, and asks nothing', async () => {
    const { notification } = stubBrowser({ permission: 'denied' });
    renderScreen(<PushSwitch />);
    expect(await screen.findByText(/Notifications are blocked for this site/)).toBeInTheDocument();
    expect(theSwitch()).toBeDisabled();
    expect(notification.requestPermission).not.toHaveBeenCalled();
  });

  it('says so on a browser without the Push API', async () => {
    stubBrowser({ push: false });
    renderScreen(<PushSwitch />);
    expect(await screen.findByText(/This browser cannot receive push notifications/)).toBeInTheDocument();
    expect(theSwitch()).toBeDisabled();
  });

  it('ends the new subscription again when the server refuses it, and says it could not turn push on', async () => {
    const { current } = stubBrowser();
    stubServer({ saved: false });
    const { user } = renderScreen(<PushSwitch />);
    await user.click(await screen.findByRole('switch', { name: 'Push notifications on this device' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Push notifications could not be turned on. Try again later.',
    );
    expect(theSwitch()).not.toBeChecked();
    expect(current()).toBeNull();
  });

  it('replaces a subscription the device kept from a key the server no longer has', async () => {
    // Left from before, while the permission went back to asking: the switch shows off.
    const { pushManager, current } = stubBrowser();
    const old = await pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: new Uint8Array([9, 9, 9]) });
    pushManager.subscribe.mockClear();
    stubServer();
    const { user } = renderScreen(<PushSwitch />);
    await user.click(await screen.findByRole('switch', { name: 'Push notifications on this device', checked: false }));
    await screen.findByRole('switch', { name: 'Push notifications on this device', checked: true });
    expect(old.unsubscribe).toHaveBeenCalledTimes(1);
    expect(pushManager.subscribe).toHaveBeenCalledTimes(1);
    expect([...new Uint8Array(current()!.options.applicationServerKey!)]).toEqual(SERVER_KEY_BYTES);
  });
});
