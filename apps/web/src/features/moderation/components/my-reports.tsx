import { displayId, type MyReport, type ReportOutcome } from '@pollscope/contract';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/loading';
import { PageHeader } from '../../../components/ui/page-header';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/question-shape';
import { useMyReports } from '../api/get-my-reports';
import { reasonLabels, ruleHref } from '../community-rules';
import './moderation.css';

const outcomes: Record<ReportOutcome, { label: string; text: string }> = {
  open: { label: 'Open', text: 'Waiting for a moderator.' },
  action_taken: { label: 'Action taken', text: 'A moderator reviewed it, agreed and acted on it.' },
  dismissed: { label: 'Dismissed', text: 'A moderator reviewed it and found no rule broken.' },
};

/** What came of a report, in words: a question a moderator kept is not the reporter's to report again. */
function outcomeText(report: MyReport): string {
  const { text } = outcomes[report.outcome];
  return report.outcome === 'dismissed' && report.target === 'question'
    ? `${text} It stays up, and you cannot report it again.`
    : text;
}

function Target({ report }: { report: MyReport }) {
  if (report.target === 'question')
    return (
      <>
        Question <Link to={paths.question.getHref(report.target_id)}>{displayId('QID', report.target_id)}</Link>
      </>
    );
  return (
    <>
      Person <Link to={paths.user.getHref(report.target_id)}>{displayId('UID', report.target_id)}</Link>
    </>
  );
}

/** The viewer's own reports, newest first, each with what came of it and when: still open, action taken, dismissed. */
export function MyReports() {
  const list = useMyReports();
  return (
    <div className="page">
      <PageHeader
        title="Your reports"
        subtitle="What you reported, and what the moderators decided. Nobody else sees this list."
      />
      {list.isLoading && <Loading label="Loading your reports…" />}
      {list.error && list.reports.length === 0 && <Banner tone="error">{list.error.message}</Banner>}
      {!list.isLoading && !list.error && list.reports.length === 0 && (
        <EmptyState title="You have not reported anything">
          <p>
            Something that breaks the <Link to={paths.rules.getHref()}>community rules</Link>? Report it from the ⋯ menu
            of a question or the Report button of a profile.
          </p>
        </EmptyState>
      )}
      {list.reports.length > 0 && (
        <div className="stack">
          <ol className="card my-reports" aria-label="Your reports">
            {list.reports.map((report) => (
              <li key={report.id} className="my-report">
                <div className="my-report__what">
                  <p className="my-report__target">
                    <Target report={report} />
                  </p>
                  <p className="my-report__meta">
                    <Link to={ruleHref(report.reason)}>{reasonLabels[report.reason]}</Link>
                    <span aria-hidden="true"> · </span>
                    <time dateTime={report.created_at}>{formatDate(report.created_at)}</time>
                    {report.reviewed_at && (
                      <>
                        <span aria-hidden="true"> · </span>
                        Reviewed <time dateTime={report.reviewed_at}>{formatDate(report.reviewed_at)}</time>
                      </>
                    )}
                  </p>
                </div>
                <p className={`outcome outcome--${report.outcome}`} title={outcomeText(report)}>
                  <span>{outcomes[report.outcome].label}</span>
                  <span className="sr-only">: {outcomeText(report)}</span>
                </p>
              </li>
            ))}
          </ol>
          {list.hasMore && (
            <Button block pending={list.isLoadingMore} onClick={() => void list.loadMore()}>
              Load more
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
