import { useLayoutEffect } from 'react';
import { useNavigate } from 'react-router';
import { AppLayout } from '../components/layout/app-layout';
import { paths } from '../config/paths';
import { ModerationShield } from '../features/moderation/components/moderation-shield';
import { ReportProvider } from '../features/moderation/components/report-provider';
import { NotificationBell } from '../features/notifications/components/notification-bell';
import { onUnauthorized } from '../lib/api-client';
import { AppProvider } from './provider';

/**
 * The frame of every screen, with the data cache; loaded beside the first screen rather than
 * before it. A call whose token was refused has already dropped it: the person logs in again.
 */
export function Component() {
  const navigate = useNavigate();
  // Before the screens' first calls can come back, which may be sooner than a passive effect runs.
  useLayoutEffect(() => onUnauthorized(() => void navigate(paths.login.getHref(), { replace: true })), [navigate]);
  return (
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
  );
}
