import type { ModerationAction, ModerationReport, ReportTarget } from '@pollscope/contract';
import type { IntlShape } from 'react-intl';
import type { MessageId } from '../../i18n/i18n-provider';

/** Each action as a button says it. */
export const actionButtons: Record<ModerationAction, MessageId> = {
  dismiss: 'moderation.action.dismiss',
  remove: 'moderation.action.remove',
  restore: 'moderation.action.restore',
  suspend: 'moderation.action.suspend',
  unsuspend: 'moderation.action.unsuspend',
  warn: 'moderation.action.warn',
};

/** Each action once taken, as the queue confirms it: "Removed “{name}”." */
export const actionDone: Record<ModerationAction, MessageId> = {
  dismiss: 'moderation.done.dismiss',
  remove: 'moderation.done.remove',
  restore: 'moderation.done.restore',
  suspend: 'moderation.done.suspend',
  unsuspend: 'moderation.done.unsuspend',
  warn: 'moderation.done.warn',
};

/** Each action as the log tells it: "{moderator} removed {target}". */
export const actionLogged: Record<ModerationAction, MessageId> = {
  dismiss: 'moderation.log.dismiss',
  remove: 'moderation.log.remove',
  restore: 'moderation.log.restore',
  suspend: 'moderation.log.suspend',
  unsuspend: 'moderation.log.unsuspend',
  warn: 'moderation.log.warn',
};

export const targetKinds: Record<ReportTarget, MessageId> = {
  question: 'moderation.report.kind.question',
  user: 'moderation.report.kind.user',
};

/** The reported question's title or person's name, for headings and dialogs; what is left when it is gone. */
export function targetName(
  report: Pick<ModerationReport, 'target' | 'id' | 'question' | 'user'>,
  intl: IntlShape,
): string {
  if (report.target === 'question')
    return report.question?.title ?? intl.formatMessage({ id: 'moderation.report.unnamedQuestion' }, { id: report.id });
  return report.user?.name ?? intl.formatMessage({ id: 'moderation.report.unnamedPerson' }, { id: report.id });
}

/**
 * "Registered together: 2 reporters from the same network, 3 within an hour of another": a sign that the accounts that
 * reported were made to report together; null when nothing links them.
 */
export function registeredTogether(
  report: Pick<ModerationReport, 'reporters_same_network' | 'reporters_same_hour'>,
  intl: IntlShape,
): string | null {
  const network = report.reporters_same_network;
  const hour = report.reporters_same_hour;
  if (network > 0 && hour > 0) return intl.formatMessage({ id: 'moderation.report.togetherBoth' }, { network, hour });
  if (network > 0) return intl.formatMessage({ id: 'moderation.report.togetherNetwork' }, { network });
  if (hour > 0) return intl.formatMessage({ id: 'moderation.report.togetherHour' }, { hour });
  return null;
}
