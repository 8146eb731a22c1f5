import { ApiError } from '../../lib/api-client';
import { deletePushSubscription } from './api/delete-push-subscription';
import { getPushKey } from './api/get-push-key';
import { savePushSubscription } from './api/save-push-subscription';

/**
 * Where this device stands with push notifications: it cannot have them (no Push API, or no
 * service worker, as under the dev server), the person blocked them for the site, or they are off
 * or on here.
 */
export type PushStatus = 'unsupported' | 'denied' | 'off' | 'on';

/**
 * The app's service worker, where the browser has all that push needs; the built app registers it once the page has
 * loaded.
 */
async function workerRegistration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!('serviceWorker' in navigator) || !('PushManager' in window) || !('Notification' in window)) return undefined;
  return (
    (await navigator.serviceWorker.getRegistration()) ??
    (import.meta.env.PROD ? navigator.serviceWorker.ready : undefined)
  );
}

/** What this device does now. Asks the person nothing. */
export async function readPushStatus(): Promise<PushStatus> {
  const registration = await workerRegistration();
  if (!registration) return 'unsupported';
  if (Notification.permission === 'denied') return 'denied';
  const subscription = await registration.pushManager.getSubscription();
  return subscription && Notification.permission === 'granted' ? 'on' : 'off';
}

/** The bytes of a base64url text, as the Push API takes a server's key. */
function bytesOfBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replaceAll('-', '+')
    .replaceAll('_', '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (character) => character.charCodeAt(0));
}

function sameBytes(kept: ArrayBuffer | null, key: Uint8Array): boolean {
  const bytes = new Uint8Array(kept ?? new ArrayBuffer(0));
  return bytes.length === key.length && bytes.every((byte, index) => byte === key[index]);
}

/**
 * Turns push on: the browser asks the person's permission here and only here, then the device
 * subscribes with the server's key and the server is told where to push. A subscription the
 * server refuses is ended again, so that the device never holds one nobody pushes to.
 */
export async function turnPushOn(): Promise<PushStatus> {
  const registration = await workerRegistration();
  if (!registration) return 'unsupported';
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') return permission === 'denied' ? 'denied' : 'off';
  const key = await getPushKey();
  if (key instanceof ApiError) throw key;
  const applicationServerKey = bytesOfBase64Url(key.key);
  let subscription = await registration.pushManager.getSubscription();
  // Made with a key the server no longer has, it could not carry the server's pushes.
  if (subscription && !sameBytes(subscription.options.applicationServerKey, applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  const { endpoint, keys } = subscription.toJSON();
  const saved = await savePushSubscription({
    endpoint: endpoint ?? subscription.endpoint,
    keys: { p256dh: keys?.p256dh ?? '', auth: keys?.auth ?? '' },
  });
  if (saved instanceof ApiError) {
    await subscription.unsubscribe();
    throw saved;
  }
  return 'on';
}

/**
 * Turns push off: the device's subscription ends first, so nothing more shows here whatever the
 * server hears; then the server is told. Should that call fail, the server drops the endpoint at
 * its next push, which the push service refuses.
 */
export async function turnPushOff(): Promise<PushStatus> {
  const subscription = await (await workerRegistration())?.pushManager.getSubscription();
  if (subscription) {
    await subscription.unsubscribe();
    await deletePushSubscription(subscription.endpoint);
  }
  return 'off';
}
