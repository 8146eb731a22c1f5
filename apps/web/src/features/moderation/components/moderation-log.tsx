import { displayId, type ModerationLogEntry } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../hooks/use-error-text';
import { useFormat } from '../../../i18n/format';
import { useModerationLog } from '../api/get-log';
import { actionLogged } from '../moderation-words';

function LogItem({ entry }: { entry: ModerationLogEntry }) {
  const intl = useIntl();
  const { day, moment } = useFormat();
  // The entry stays when its moderator's account is deleted, without their name.
  const moderator =
    entry.moderator.id !== null && entry.moderator.name ? (
      <Link to={paths.user.getHref(entry.moderator.id)}>{entry.moderator.name}</Link>
    ) : (
      entry.moderator.name || intl.formatMessage({ id: 'moderation.log.formerModerator' })
    );
  const target =
    entry.target === 'question' ? (
      <Link to={paths.question.getHref(entry.target_id)}>{displayId('QID', entry.target_id)}</Link>
    ) : (
      <Link to={paths.user.getHref(entry.target_id)}>{displayId('UID', entry.target_id)}</Link>
    );
  return (
    <li className="log-entry">
      <p className="log-entry__text">
        <FormattedMessage
          id={actionLogged[entry.action]}
          values={{
            moderator,
            kind: entry.target,
            target,
            own: entry.own_question ? 'yes' : 'no',
            hasUntil: entry.until ? 'yes' : 'no',
            until: entry.until ? day(entry.until) : '',
          }}
        />
      </p>
      <blockquote className="log-entry__reason">{entry.reason}</blockquote>
      <p className="log-entry__meta">
        <time dateTime={entry.at}>{moment(entry.at)}</time>
      </p>
    </li>
  );
}

/** Every action moderators took, newest first, a page at a time; entries never change. */
export function ModerationLog() {
  const intl = useIntl();
  const errorText = useErrorText();
  const log = useModerationLog();
  if (log.isLoading) return <Loading label={intl.formatMessage({ id: 'moderation.log.loading' })} />;
  if (log.error && log.entries.length === 0) return <Banner tone="error">{errorText(log.error)}</Banner>;
  if (log.entries.length === 0)
    return (
      <EmptyState title={intl.formatMessage({ id: 'moderation.log.empty' })}>
        <p>
          <FormattedMessage id="moderation.log.emptyText" />
        </p>
      </EmptyState>
    );
  return (
    <div className="stack">
      <ol className="card log-list" aria-label={intl.formatMessage({ id: 'moderation.log.label' })}>
        {log.entries.map((entry) => (
          <LogItem key={entry.id} entry={entry} />
        ))}
      </ol>
      {log.hasMore && (
        <Button block pending={log.isLoadingMore} onClick={() => void log.loadMore()}>
          <FormattedMessage id="moderation.loadMore" />
        </Button>
      )}
    </div>
  );
}
