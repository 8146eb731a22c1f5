import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { useNewVersion } from '../../lib/service-worker';
import { Button } from '../ui/button';
import './update-toast.css';

/** Offered once a newer version of the app has taken over: this page still runs the older one until it reloads. */
export function UpdateToast() {
  const newVersion = useNewVersion();
  const [later, setLater] = useState(false);
  return (
    // A live region present from the start, so that its message is read out when it comes.
    <div role="status" aria-live="polite">
      {newVersion && !later && (
        <div className="update-toast">
          <span className="update-toast__text">
            <FormattedMessage id="update.newVersion" />
          </span>
          <Button variant="primary" size="small" onClick={() => window.location.reload()}>
            <FormattedMessage id="update.reload" />
          </Button>
          <Button variant="ghost" size="small" onClick={() => setLater(true)}>
            <FormattedMessage id="update.later" />
          </Button>
        </div>
      )}
    </div>
  );
}
