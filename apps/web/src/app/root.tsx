import { useLayoutEffect } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../components/layout/app-layout';
import { Loading } from '../components/ui/loading';
import { paths } from '../config/paths';
import { ModerationShield } from '../features/moderation/components/moderation-shield';
import { ReportProvider } from '../features/moderation/components/report-provider';
import { NotificationBell } from '../features/notifications/components/notification-bell';
import { I18nProvider } from '../i18n/i18n-provider';
import { onUnauthorized } from '../lib/api-client';
import { AppProvider } from './provider';

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
      <AppProvider>
        <ReportProvider>
          <AppLayout
            headerActions={
              <>
                <ModerationShield />
                <NotificationBell />
              </>
            }
          />
        </ReportProvider>
      </AppProvider>
    </I18nProvider>
  );
}
