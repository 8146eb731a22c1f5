import { apiPath } from '../../../lib/api-path';
import { useCursorPages } from '../../../lib/cursor-pages';

export const logKey = apiPath('/api/moderation/log/');

/** Every moderator's action, newest first, a page at a time. */
export function useModerationLog() {
  const list = useCursorPages(logKey);
  return { ...list, entries: list.pages.flatMap((page) => page.entries) };
}
