import { useEffect, useId, useState } from 'react';
import { Banner } from '../../../components/ui/banner';
import { readPushStatus, turnPushOff, turnPushOn, type PushStatus } from '../push-device';
import './push.css';

const hints: Record<PushStatus | 'checking', string> = {
  checking: 'Checking what this device can do…',
  on: 'Your notifications appear on this device, even when POLLSCOPE is closed.',
  off: 'Get your notifications on this device, even when POLLSCOPE is closed. Your browser asks you to allow them first.',
  denied:
    'Notifications are blocked for this site. Allow them in your browser’s settings for this site, then switch this on.',
  unsupported:
    'This browser cannot receive push notifications. On an iPhone or iPad, add POLLSCOPE to your Home Screen and open it from there.',
};

/**
 * The switch for push notifications on this device, which is the device's own setting rather
 * than the account's: it takes effect at once, and the browser asks for permission only when it
 * is switched on.
 */
export function PushSwitch() {
  const id = useId();
  const [status, setStatus] = useState<PushStatus | 'checking'>('checking');
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => {
    let current = true;
    const read = () => void readPushStatus().then((found) => current && setStatus(found));
    read();
    // Notifications allowed or blocked in the browser's settings meanwhile change what the switch can do.
    void navigator.permissions
      ?.query({ name: 'notifications' })
      .then((permission) => permission.addEventListener('change', read))
      .catch(() => undefined);
    return () => {
      current = false;
    };
  }, []);

  async function change(on: boolean) {
    setPending(true);
    setFailure(null);
    try {
      setStatus(await (on ? turnPushOn() : turnPushOff()));
    } catch {
      setFailure(
        on
          ? 'Push notifications could not be turned on. Try again later.'
          : 'Push notifications could not be turned off. Try again later.',
      );
      setStatus(await readPushStatus());
    }
    setPending(false);
  }

  const usable = status === 'on' || status === 'off';
  return (
    <section className="card push-switch">
      <div className="push-switch__row">
        <label className="push-switch__label" htmlFor={`${id}-switch`}>
          Push notifications on this device
        </label>
        <input
          id={`${id}-switch`}
          className="switch"
          type="checkbox"
          role="switch"
          checked={status === 'on'}
          disabled={!usable || pending}
          aria-describedby={`${id}-hint`}
          onChange={(event) => void change(event.target.checked)}
        />
      </div>
      <p id={`${id}-hint`} className="push-switch__hint">
        {hints[status]}
      </p>
      {failure && <Banner tone="error">{failure}</Banner>}
    </section>
  );
}
