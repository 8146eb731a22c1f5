import type { NotificationPage, Unread } from '@pollscope/contract';
import { useSWRConfig } from 'swr';
import { unstable_serialize } from 'swr/infinite';
import { ApiError, apiPost } from '../../../lib/api-client';
import { pageKeys } from '../../../lib/cursor-pages';
import { notificationsKey } from './get-notifications';
import { unreadKey } from './get-unread-count';

/** The pages as the server now has them: every one read, and what is still unread (arrived since) as the count. */
const allRead =
  ({ unread }: Unread) =>
  (pages: NotificationPage[] | undefined) =>
    pages?.map((page) => ({
      ...page,
      unread,
      notifications: page.notifications.map((notification) => ({ ...notification, read: true })),
    }));

/**
 * Marks every notification read (the call without ids), then shows it at once in the list and in
 * the header's count, without asking the server again. Resolves to the error when it failed.
 */
export function useMarkAllRead() {
  const { mutate } = useSWRConfig();
  return async (): Promise<ApiError | null> => {
    const result = await apiPost('/api/notifications/read/');
    if (result instanceof ApiError) return result;
    await Promise.all([
      mutate(unreadKey, result, { revalidate: false }),
      mutate(unstable_serialize(pageKeys(notificationsKey)), allRead(result), { revalidate: false }),
    ]);
    return null;
  };
}
