import { api, type ModerationReportPage, type ReportStatus } from '@pollscope/contract';
import { useCursorPages } from '../../../lib/cursor-pages';

export const reportsKey = (status: ReportStatus) => `${api.moderationReports}?status=${status}`;

/** The reported targets with open (or closed) reports, most reported first, a page at a time. */
export function useReports(status: ReportStatus) {
  const list = useCursorPages<ModerationReportPage>(reportsKey(status));
  return { ...list, reports: list.pages.flatMap((page) => page.reports) };
}

export type ReportList = ReturnType<typeof useReports>;
