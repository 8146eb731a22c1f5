import type { ReportStatus } from '@pollscope/contract';
import { apiPath } from '../../../lib/api-path';
import { useCursorPages } from '../../../lib/cursor-pages';

export const reportsKey = (status: ReportStatus) => apiPath('/api/moderation/reports/', { query: { status } });

/** The reported targets with open (or closed) reports, most reported first, a page at a time. */
export function useReports(status: ReportStatus) {
  const list = useCursorPages(reportsKey(status));
  return { ...list, reports: list.pages.flatMap((page) => page.reports) };
}

export type ReportList = ReturnType<typeof useReports>;
