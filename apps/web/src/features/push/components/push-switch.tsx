import { useEffect, useId, useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import type { MessageId } from '../../../i18n/i18n-provider';
import { readPushStatus, turnPushOff, turnPushOn, type PushStatus } from '../push-device';
import './push.css';

const hints: Record<PushStatus | 'checking', MessageId> = {
  checking: 'push.hint.checking',
  on: 'push.hint.on',
  off: 'push.hint.off',
  denied: 'push.hint.denied',
  unsupported: 'push.hint.unsupported',
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
  const [failure, setFailure] = useState<MessageId | null>(null);

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
      setFailure(on ? 'push.failedOn' : 'push.failedOff');
      setStatus(await readPushStatus());
    }
    setPending(false);
  }

  const usable = status === 'on' || status === 'off';
  return (
    <section className="card push-switch">
      <div className="push-switch__row">
        <label className="push-switch__label" htmlFor={`${id}-switch`}>
          <FormattedMessage id="push.label" />
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
        <FormattedMessage id={hints[status]} />
      </p>
      {failure && (
        <Banner tone="error">
          <FormattedMessage id={failure} />
        </Banner>
      )}
    </section>
  );
}
