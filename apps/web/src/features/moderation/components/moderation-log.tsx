import { displayId, type ModerationLogEntry } from '@pollscope/contract';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/question-shape';
import { useModerationLog } from '../api/get-log';
import { actionWords, formatMoment } from '../moderation-words';

function Target({ entry }: { entry: ModerationLogEntry }) {
  if (entry.target === 'question')
    return (
      <>
        question <Link to={paths.question.getHref(entry.target_id)}>{displayId('QID', entry.target_id)}</Link>
      </>
    );
  return <Link to={paths.user.getHref(entry.target_id)}>{displayId('UID', entry.target_id)}</Link>;
}

function LogItem({ entry }: { entry: ModerationLogEntry }) {
  // The entry stays when its moderator's account is deleted, without their name.
  const moderator = entry.moderator.name || 'A former moderator';
  return (
    <li className="log-entry">
      <p className="log-entry__text">
        {entry.moderator.id !== null && entry.moderator.name ? (
          <Link to={paths.user.getHref(entry.moderator.id)}>{moderator}</Link>
        ) : (
          moderator
        )}{' '}
        {actionWords[entry.action].done} <Target entry={entry} />
        {entry.until && <> until {formatDate(entry.until)}</>}
        {entry.own_question && <>, their own question, which no other admin could decide</>}
      </p>
      <blockquote className="log-entry__reason">{entry.reason}</blockquote>
      <p className="log-entry__meta">
        <time dateTime={entry.at}>{formatMoment(entry.at)}</time>
      </p>
    </li>
  );
}

/** Every action moderators took, newest first, a page at a time; entries never change. */
export function ModerationLog() {
  const log = useModerationLog();
  if (log.isLoading) return <Loading label="Loading the log…" />;
  if (log.error && log.entries.length === 0) return <Banner tone="error">{log.error.message}</Banner>;
  if (log.entries.length === 0)
    return (
      <EmptyState title="No actions yet">
        <p>Every action a moderator takes is kept here, newest first.</p>
      </EmptyState>
    );
  return (
    <div className="stack">
      <ol className="card log-list" aria-label="Moderation log">
        {log.entries.map((entry) => (
          <LogItem key={entry.id} entry={entry} />
        ))}
      </ol>
      {log.hasMore && (
        <Button block pending={log.isLoadingMore} onClick={() => void log.loadMore()}>
          Load more
        </Button>
      )}
    </div>
  );
}
