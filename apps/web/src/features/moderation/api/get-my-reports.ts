import { apiPath } from '../../../lib/api-path';
import { useCursorPages } from '../../../lib/cursor-pages';

export const myReportsKey = apiPath('/api/reports/');

/** The viewer's own reports, newest first, each with what came of it. */
export function useMyReports() {
  const list = useCursorPages(myReportsKey);
  return { ...list, reports: list.pages.flatMap((page) => page.reports) };
}
