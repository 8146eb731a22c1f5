import { api, type ModerationLogPage } from '@pollscope/contract';
import { useCursorPages } from '../../../lib/cursor-pages';

export const logKey = api.moderationLog;

/** Every moderator's action, newest first, a page at a time. */
export function useModerationLog() {
  const list = useCursorPages<ModerationLogPage>(logKey);
  return { ...list, entries: list.pages.flatMap((page) => page.entries) };
}
