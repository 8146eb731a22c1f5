import { useEffect, useLayoutEffect, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { AppLayout } from '../components/layout/app-layout';
import { buttonClass } from '../components/ui/button';
import { Loading, LoadingLabel } from '../components/ui/loading';
import { paths } from '../config/paths';
import { ModerationShield } from '../features/moderation/components/moderation-shield';
import { ReportProvider } from '../features/moderation/components/report-provider';
import { NotificationBell } from '../features/notifications/components/notification-bell';
import { I18nProvider } from '../i18n/i18n-provider';
import { onUnauthorized } from '../lib/api-client';
import { keepWorkerTexts } from '../lib/service-worker';
import { AppProvider } from './provider';

/**
 * The words of every loading indicator below it, in the language on screen (components/ui/loading.tsx),
 * and those the service worker shows of its own, which has no catalogs: in the language of the last page.
 */
function FrameWords({ children }: { children: ReactNode }) {
  const intl = useIntl();
  useEffect(() => keepWorkerTexts({ pushBody: intl.formatMessage({ id: 'worker.push.body' }) }), [intl]);
  return <LoadingLabel value={intl.formatMessage({ id: 'ui.loading' })}>{children}</LoadingLabel>;
}

/**
 * The frame of every screen, with the app's language and the data cache; loaded beside the first
 * screen rather than before it. A language other than English waits for its catalog, which the
 * router asked for with this code (router.tsx). A call whose token was refused has already
 * dropped it: the person logs in again.
 */
export function Component() {
  const navigate = useNavigate();
  // Before the screens' first calls can come back, which may be sooner than a passive effect runs.
  useLayoutEffect(() => onUnauthorized(() => void navigate(paths.login.getHref(), { replace: true })), [navigate]);
  return (
    <I18nProvider fallback={<Loading />}>
      <FrameWords>
        <AppProvider>
          <ReportProvider>
            <AppLayout
              headerActions={
                <>
                  <ModerationShield />
                  <NotificationBell />
                </>
              }
              screenError={<ScreenError />}
            />
          </ReportProvider>
        </AppProvider>
      </FrameWords>
    </I18nProvider>
  );
}

/**
 * What a screen that failed shows in its place, inside the frame: its code could not
 * be downloaded (the connection lost, a newer version deployed) or it broke. Loading the page
 * afresh is what helps.
 */
export function ScreenError() {
  const intl = useIntl();
  return (
    <div className="card empty-state" role="alert">
      <title>{intl.formatMessage({ id: 'error.pageTitle' })}</title>
      <h1>
        <FormattedMessage id="error.title" />
      </h1>
      <p>
        <FormattedMessage id="error.text" />
      </p>
      <button type="button" className={buttonClass({ variant: 'primary' })} onClick={() => window.location.reload()}>
        <FormattedMessage id="error.reload" />
      </button>
    </div>
  );
}

/** The same when the frame itself failed: on its own, in the language it would have had (router.tsx). */
export function FrameError() {
  return (
    <I18nProvider fallback={<Loading />}>
      <main className="app-main">
        <ScreenError />
      </main>
    </I18nProvider>
  );
}
