import { useIntl } from 'react-intl';
import { NotificationsView } from '../../features/notifications/components/notifications-view';

export function Component() {
  const intl = useIntl();
  return (
    <>
      <title>{intl.formatMessage({ id: 'notifications.pageTitle' })}</title>
      <NotificationsView />
    </>
  );
}
