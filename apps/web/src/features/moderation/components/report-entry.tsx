import {
  displayId,
  REPORT_REASONS,
  type ModerationAction,
  type ModerationReport,
  type Question,
} from '@pollscope/contract';
import { useId, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { paths } from '../../../config/paths';
import { useFormat } from '../../../i18n/format';
import { reasonLabels, ruleHref, ruleName } from '../community-rules';
import { actionButtons, registeredTogether, targetKinds, targetName } from '../moderation-words';
import { ActionDialog } from './action-dialog';

/**
 * The actions that apply to a target as it stands. Dismissing closes open reports, so it is for the
 * open ones; a removed question can be restored, not removed again. A person with open reports
 * is not suspended (a suspended person's profile cannot be reported); one whose reports are
 * closed may be, or may be again.
 */
export function actionsFor(report: ModerationReport): ModerationAction[] {
  const open = report.status === 'open';
  if (report.target === 'question') {
    const removed = report.question?.moderation?.status === 'removed';
    return [...(open ? (['dismiss'] as const) : []), removed ? 'restore' : 'remove', 'warn'];
  }
  return open ? ['dismiss', 'suspend', 'warn'] : ['suspend', 'unsuspend', 'warn'];
}

interface ReportEntryProps {
  report: ModerationReport;
  /** A question as people see it: the app's question card. */
  renderQuestion: (question: Question) => ReactNode;
  /** Called once an action was taken on the target, with what was done. */
  onActed: (action: ModerationAction, name: string) => void;
}

/** What is reported, by how many, and when. */
function ReportHeading({ report, name, titleId }: { report: ModerationReport; name: string; titleId: string }) {
  const { moment } = useFormat();
  return (
    <header className="report-entry__head">
      <span className={`report-entry__kind report-entry__kind--${report.target}`}>
        <FormattedMessage id={targetKinds[report.target]} />
      </span>
      <h2 id={titleId} className="report-entry__title">
        <FormattedMessage
          id="moderation.report.heading"
          values={{
            name,
            count: report.reporters,
            hidden: (chunks) => <span className="sr-only">{chunks}</span>,
          }}
        />
      </h2>
      <p className="report-entry__times">
        {report.first_at === report.last_at ? (
          <time dateTime={report.first_at}>{moment(report.first_at)}</time>
        ) : (
          <FormattedMessage
            id="moderation.report.times"
            values={{
              first: <time dateTime={report.first_at}>{moment(report.first_at)}</time>,
              last: <time dateTime={report.last_at}>{moment(report.last_at)}</time>,
            }}
          />
        )}
      </p>
    </header>
  );
}

/** Each reason given, with how many gave it, linked to the rule it names. */
function ReportReasons({ report }: { report: ModerationReport }) {
  const intl = useIntl();
  const reasons = REPORT_REASONS.filter((reason) => (report.reasons[reason] ?? 0) > 0);
  return (
    <ul className="report-entry__reasons" aria-label={intl.formatMessage({ id: 'moderation.report.reasons' })}>
      {reasons.map((reason) => (
        <li key={reason}>
          <Link to={ruleHref(reason)} className="reason-chip" title={ruleName(reason, intl)}>
            <FormattedMessage
              id="moderation.report.reasonCount"
              values={{
                reason: intl.formatMessage({ id: reasonLabels[reason] }),
                count: report.reasons[reason] ?? 0,
                hidden: (chunks) => <span className="sr-only">{chunks}</span>,
                number: (chunks) => <span className="reason-chip__count">{chunks}</span>,
              }}
            />
          </Link>
        </li>
      ))}
    </ul>
  );
}

/** The question as people see it, or the person reported; or that it is gone. */
function ReportedTarget({ report, renderQuestion }: Pick<ReportEntryProps, 'report' | 'renderQuestion'>) {
  return (
    <div className="report-entry__target">
      {report.target === 'question' &&
        (report.question ? (
          renderQuestion(report.question)
        ) : (
          <p className="muted">
            <FormattedMessage id="moderation.report.questionGone" />
          </p>
        ))}
      {report.target === 'user' &&
        (report.user ? (
          <Link to={paths.user.getHref(report.user.id)} className="report-person">
            <span className="avatar" aria-hidden="true">
              {report.user.name.slice(0, 1).toUpperCase()}
            </span>
            <span className="report-person__name">{report.user.name}</span>
            <span className="mono muted">{displayId('UID', report.user.id)}</span>
          </Link>
        ) : (
          <p className="muted">
            <FormattedMessage id="moderation.report.personGone" />
          </p>
        ))}
    </div>
  );
}

/** One reported question or person: what people see of it, why they reported it, and what a moderator can do. */
export function ReportEntry({ report, renderQuestion, onActed }: ReportEntryProps) {
  const id = useId();
  const intl = useIntl();
  const [acting, setActing] = useState<{ action: ModerationAction; trigger: HTMLElement } | null>(null);
  const name = targetName(report, intl);
  const together = registeredTogether(report, intl);

  return (
    <article className="card report-entry" aria-labelledby={`${id}-title`}>
      <ReportHeading report={report} name={name} titleId={`${id}-title`} />

      {together && <p className="report-entry__together">{together}</p>}

      <ReportReasons report={report} />

      {report.notes.length > 0 && (
        <section className="report-entry__notes" aria-label={intl.formatMessage({ id: 'moderation.report.notes' })}>
          {report.notes.map((note, index) => (
            <blockquote key={index}>{note}</blockquote>
          ))}
        </section>
      )}

      <ReportedTarget report={report} renderQuestion={renderQuestion} />

      <div
        className="report-entry__actions"
        role="group"
        aria-label={intl.formatMessage({ id: 'moderation.report.actOn' }, { name })}
      >
        {actionsFor(report).map((action) => (
          <Button
            key={action}
            size="small"
            variant={action === 'remove' || action === 'suspend' ? 'danger' : 'secondary'}
            onClick={(event) => setActing({ action, trigger: event.currentTarget })}
          >
            <FormattedMessage id={actionButtons[action]} />
          </Button>
        ))}
      </div>

      {acting && (
        <ActionDialog
          action={acting.action}
          subject={{ target: report.target, id: report.id, name }}
          returnFocus={acting.trigger}
          onClose={() => setActing(null)}
          onDone={(action) => {
            setActing(null);
            onActed(action, name);
          }}
        />
      )}
    </article>
  );
}
