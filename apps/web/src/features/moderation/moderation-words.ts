import type { ModerationAction, ModerationReport, ReportTarget } from '@pollscope/contract';
import { formatDate } from '../../lib/question-shape';

/** Each action as a button says it, and as the log tells it in the past tense. */
export const actionWords: Record<ModerationAction, { button: string; done: string }> = {
  dismiss: { button: 'Dismiss', done: 'dismissed the reports on' },
  remove: { button: 'Remove', done: 'removed' },
  restore: { button: 'Restore', done: 'restored' },
  suspend: { button: 'Suspend', done: 'suspended' },
  unsuspend: { button: 'Lift suspension', done: 'lifted the suspension of' },
  warn: { button: 'Warn', done: 'warned' },
};

/** "Reported by 3 people". */
export const reportersLabel = (count: number) => `Reported by ${count} ${count === 1 ? 'person' : 'people'}`;

/** The reported question's title or person's name, for headings and dialogs; what is left when it is gone. */
export function targetName(report: Pick<ModerationReport, 'target' | 'id' | 'question' | 'user'>): string {
  if (report.target === 'question') return report.question?.title ?? `Question ${report.id}`;
  return report.user?.name ?? `Person ${report.id}`;
}

export const targetKinds: Record<ReportTarget, string> = { question: 'Question', user: 'Person' };

/**
 * "Registered together: 2 reporters from the same network, 3 within an hour of another": a sign that the accounts that
 * reported were made to report together; null when nothing links them.
 */
export function registeredTogether(
  report: Pick<ModerationReport, 'reporters_same_network' | 'reporters_same_hour'>,
): string | null {
  const parts = [
    report.reporters_same_network > 0 && `${report.reporters_same_network} reporters from the same network`,
    report.reporters_same_hour > 0 && `${report.reporters_same_hour} within an hour of another`,
  ].filter((part) => part !== false);
  return parts.length === 0 ? null : `Registered together: ${parts.join(', ')}`;
}

/**
 * Made at its first use: the header's shield loads this module on every screen, and a page's first use of Intl costs it
 * tens of ms.
 */
let timeFormat: Intl.DateTimeFormat | undefined;

/** A moment as the moderation screens show it: "4 May 2026, 10:05 UTC". */
export function formatMoment(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : `${formatDate(iso)}, ${(timeFormat ??= new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' })).format(date)} UTC`;
}
