import type { ReportTarget } from '@pollscope/contract';
import { createContext, useContext } from 'react';

/** What a person may report: a question or a person, named as the report dialog shows it. */
export interface ReportSubject {
  target: ReportTarget;
  id: number;
  /** The question's title or the person's name. */
  name: string;
}

/** Opens the report dialog for the subject; closing it gives the keyboard back to `returnFocus`. */
export type OpenReport = (subject: ReportSubject, returnFocus: HTMLElement | null) => void;

/**
 * The app provides the report dialog (the moderation feature's) to every screen through this, so
 * that a question card or a profile offers "Report" without importing another feature. Without a
 * provider there is nothing to offer, and they show no such entry.
 */
export const ReportContext = createContext<OpenReport | null>(null);

export function useReport(): OpenReport | null {
  return useContext(ReportContext);
}
