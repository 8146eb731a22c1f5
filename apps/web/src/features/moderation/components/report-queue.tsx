import type { ModerationAction, Question, ReportStatus } from '@pollscope/contract';
import { useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/loading';
import { useErrorText } from '../../../hooks/use-error-text';
import { useReports } from '../api/get-reports';
import type { MessageId } from '../../../i18n/i18n-provider';
import { actionDone } from '../moderation-words';
import { ReportEntry } from './report-entry';

const emptyTitles: Record<ReportStatus, MessageId> = {
  open: 'moderation.queue.emptyOpen',
  closed: 'moderation.queue.emptyClosed',
};

const queueNames: Record<ReportStatus, MessageId> = {
  open: 'moderation.queue.open',
  closed: 'moderation.queue.closed',
};

interface ReportQueueProps {
  status: ReportStatus;
  /** A question as people see it: the app's question card. */
  renderQuestion: (question: Question) => ReactNode;
}

/** The reported questions and people, most reported first, each with what a moderator can do. */
export function ReportQueue({ status, renderQuestion }: ReportQueueProps) {
  const list = useReports(status);
  const [done, setDone] = useState<{ action: ModerationAction; name: string } | null>(null);
  const listRef = useRef<HTMLElement>(null);
  const intl = useIntl();
  const errorText = useErrorText();

  function acted(action: ModerationAction, name: string) {
    setDone({ action, name });
    // The entry may leave the list with its button: the keyboard stays on the list rather than falling back to the
    // page's start.
    listRef.current?.focus();
  }

  return (
    <section
      className="stack report-queue"
      ref={listRef}
      tabIndex={-1}
      aria-label={intl.formatMessage({ id: queueNames[status] })}
    >
      <div role="status" className="report-queue__status">
        {done && (
          <div className="banner banner--success">
            <FormattedMessage id={actionDone[done.action]} values={{ name: done.name }} />
          </div>
        )}
      </div>
      {list.isLoading && <Loading label={intl.formatMessage({ id: 'moderation.queue.loading' })} />}
      {list.error && list.reports.length === 0 && <Banner tone="error">{errorText(list.error)}</Banner>}
      {!list.isLoading && !list.error && list.reports.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: emptyTitles[status] })}>
          {status === 'open' && (
            <p>
              <FormattedMessage id="moderation.queue.emptyOpenText" />
            </p>
          )}
        </EmptyState>
      )}
      {list.reports.length > 0 && (
        <div className="stack">
          {list.reports.map((report) => (
            <ReportEntry
              key={`${report.target}-${report.id}`}
              report={report}
              renderQuestion={renderQuestion}
              onActed={acted}
            />
          ))}
          {list.hasMore && (
            <Button block pending={list.isLoadingMore} onClick={() => void list.loadMore()}>
              <FormattedMessage id="moderation.loadMore" />
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
