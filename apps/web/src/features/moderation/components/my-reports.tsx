import { displayId, type MyReport, type ReportOutcome } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/loading';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../hooks/use-error-text';
import { useFormat } from '../../../i18n/format';
import type { MessageId } from '../../../i18n/i18n-provider';
import { useMyReports } from '../api/get-my-reports';
import { reasonLabels, ruleHref } from '../community-rules';
import './moderation.css';

const outcomes: Record<ReportOutcome, { label: MessageId; text: MessageId }> = {
  open: { label: 'reports.mine.outcome.open', text: 'reports.mine.outcome.openText' },
  action_taken: { label: 'reports.mine.outcome.actionTaken', text: 'reports.mine.outcome.actionTakenText' },
  dismissed: { label: 'reports.mine.outcome.dismissed', text: 'reports.mine.outcome.dismissedText' },
};

/** What came of a report, in words: a question a moderator kept is not the reporter's to report again. */
function outcomeText(report: MyReport): MessageId {
  return report.outcome === 'dismissed' && report.target === 'question'
    ? 'reports.mine.outcome.dismissedQuestionText'
    : outcomes[report.outcome].text;
}

function Target({ report }: { report: MyReport }) {
  const href =
    report.target === 'question' ? paths.question.getHref(report.target_id) : paths.user.getHref(report.target_id);
  return (
    <FormattedMessage
      id="reports.mine.target"
      values={{
        kind: report.target,
        id: displayId(report.target === 'question' ? 'QID' : 'UID', report.target_id),
        link: (chunks) => <Link to={href}>{chunks}</Link>,
      }}
    />
  );
}

function ReportItem({ report }: { report: MyReport }) {
  const intl = useIntl();
  const { day } = useFormat();
  const text = intl.formatMessage({ id: outcomeText(report) });
  return (
    <li className="my-report">
      <div className="my-report__what">
        <p className="my-report__target">
          <Target report={report} />
        </p>
        <p className="my-report__meta">
          <Link to={ruleHref(report.reason)}>
            <FormattedMessage id={reasonLabels[report.reason]} />
          </Link>
          <span aria-hidden="true"> · </span>
          <time dateTime={report.created_at}>{day(report.created_at)}</time>
          {report.reviewed_at && (
            <>
              <span aria-hidden="true"> · </span>
              <FormattedMessage
                id="reports.mine.reviewed"
                values={{ date: <time dateTime={report.reviewed_at}>{day(report.reviewed_at)}</time> }}
              />
            </>
          )}
        </p>
      </div>
      <p className={`outcome outcome--${report.outcome}`} title={text}>
        <FormattedMessage
          id="reports.mine.outcome"
          values={{
            label: intl.formatMessage({ id: outcomes[report.outcome].label }),
            text,
            name: (chunks) => <span>{chunks}</span>,
            hidden: (chunks) => <span className="sr-only">{chunks}</span>,
          }}
        />
      </p>
    </li>
  );
}

/** The viewer's own reports, newest first, each with what came of it and when: still open, action taken, dismissed. */
export function MyReports() {
  const intl = useIntl();
  const errorText = useErrorText();
  const list = useMyReports();
  return (
    <div className="page">
      <PageHeader
        title={<FormattedMessage id="reports.mine.title" />}
        subtitle={<FormattedMessage id="reports.mine.subtitle" />}
      />
      {list.isLoading && <Loading label={intl.formatMessage({ id: 'reports.mine.loading' })} />}
      {list.error && list.reports.length === 0 && <Banner tone="error">{errorText(list.error)}</Banner>}
      {!list.isLoading && !list.error && list.reports.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: 'reports.mine.empty' })}>
          <p>
            <FormattedMessage
              id="reports.mine.emptyText"
              values={{ link: (chunks) => <Link to={paths.rules.getHref()}>{chunks}</Link> }}
            />
          </p>
        </EmptyState>
      )}
      {list.reports.length > 0 && (
        <div className="stack">
          <ol className="card my-reports" aria-label={intl.formatMessage({ id: 'reports.mine.title' })}>
            {list.reports.map((report) => (
              <ReportItem key={report.id} report={report} />
            ))}
          </ol>
          {list.hasMore && (
            <Button block pending={list.isLoadingMore} onClick={() => void list.loadMore()}>
              <FormattedMessage id="reports.mine.loadMore" />
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
