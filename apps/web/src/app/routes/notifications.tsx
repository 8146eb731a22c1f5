import { NotificationsView } from '../../features/notifications/components/notifications-view';

export function Component() {
  return (
    <>
      <title>Notifications · POLLSCOPE</title>
      <NotificationsView />
    </>
  );
}
