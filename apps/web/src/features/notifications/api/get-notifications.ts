import { apiPath } from '../../../lib/api-path';
import { useCursorPages } from '../../../lib/cursor-pages';

export const notificationsKey = apiPath('/api/notifications/');

/** The viewer's notifications, newest first, a page at a time, with the unread count the server sent along. */
export function useNotifications() {
  const list = useCursorPages(notificationsKey);
  return {
    ...list,
    notifications: list.pages.flatMap((page) => page.notifications),
    unread: list.pages[0]?.unread ?? 0,
  };
}
