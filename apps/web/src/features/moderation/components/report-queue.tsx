import type { ModerationAction, Question, ReportStatus } from '@pollscope/contract';
import { useRef, useState, type ReactNode } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/loading';
import { useReports } from '../api/get-reports';
import { actionWords } from '../moderation-words';
import { ReportEntry } from './report-entry';

const emptyTitles: Record<ReportStatus, string> = {
  open: 'No open reports',
  closed: 'No closed reports yet',
};

interface ReportQueueProps {
  status: ReportStatus;
  /** A question as people see it: the app's question card. */
  renderQuestion: (question: Question) => ReactNode;
}

/** The reported questions and people, most reported first, each with what a moderator can do. */
export function ReportQueue({ status, renderQuestion }: ReportQueueProps) {
  const list = useReports(status);
  const [done, setDone] = useState<string | null>(null);
  const listRef = useRef<HTMLElement>(null);

  function acted(action: ModerationAction, name: string) {
    const past = actionWords[action].done;
    setDone(`${past.charAt(0).toUpperCase()}${past.slice(1)} “${name}”.`);
    // The entry may leave the list with its button: the keyboard stays on the list rather than falling back to the
    // page's start.
    listRef.current?.focus();
  }

  return (
    <section
      className="stack report-queue"
      ref={listRef}
      tabIndex={-1}
      aria-label={status === 'open' ? 'Open reports' : 'Closed reports'}
    >
      <div role="status" className="report-queue__status">
        {done && <div className="banner banner--success">{done}</div>}
      </div>
      {list.isLoading && <Loading label="Loading reports…" />}
      {list.error && list.reports.length === 0 && <Banner tone="error">{list.error.message}</Banner>}
      {!list.isLoading && !list.error && list.reports.length === 0 && (
        <EmptyState title={emptyTitles[status]}>
          {status === 'open' && (
            <p>Nothing waits for a moderator. Reports people send will show here, most reported first.</p>
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
              Load more
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
