import { api, type MyReportPage } from '@pollscope/contract';
import { useCursorPages } from '../../../lib/cursor-pages';

export const myReportsKey = api.reports;

/** The viewer's own reports, newest first, each with what came of it. */
export function useMyReports() {
  const list = useCursorPages<MyReportPage>(myReportsKey);
  return { ...list, reports: list.pages.flatMap((page) => page.reports) };
}
