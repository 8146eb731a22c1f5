import { useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Banner, MessageSlot } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { CheckIcon } from '../../../components/ui/icons';
import { Loading } from '../../../components/ui/loading';
import { PageHeader } from '../../../components/ui/page-header';
import { useErrorText } from '../../../hooks/use-error-text';
import { useTimedMessage } from '../../../hooks/use-timed-message';
import { useNotifications } from '../api/get-notifications';
import { useMarkAllRead } from '../api/mark-all-read';
import { NotificationItem } from './notification-item';
import './notifications.css';

/**
 * The viewer's notifications, newest first, unread ones set apart. Showing them marks nothing
 * read: the person does, with "Mark all as read".
 */
export function NotificationsView() {
  const intl = useIntl();
  const errorText = useErrorText();
  const list = useNotifications();
  const markAllRead = useMarkAllRead();
  const [marking, setMarking] = useState(false);
  const [message, setMessage] = useTimedMessage();
  const listRef = useRef<HTMLOListElement>(null);

  async function markAll() {
    setMarking(true);
    const error = await markAllRead();
    setMarking(false);
    if (error) {
      setMessage({ text: errorText(error), tone: 'error' });
      return;
    }
    setMessage({ text: intl.formatMessage({ id: 'notifications.markedAllRead' }), tone: 'success' });
    // The button goes once nothing is unread; the keyboard stays on the list rather than falling back to the page's
    // start.
    listRef.current?.focus();
  }

  return (
    <div className="page">
      <div className="notifications-head">
        <PageHeader
          title={intl.formatMessage({ id: 'notifications.title' })}
          subtitle={
            list.unread > 0
              ? intl.formatMessage({ id: 'notifications.unreadCount' }, { count: list.unread })
              : undefined
          }
          actions={
            list.unread > 0 && (
              <Button size="small" pending={marking} onClick={() => void markAll()}>
                <CheckIcon />
                <FormattedMessage id="notifications.markAllRead" />
              </Button>
            )
          }
        />
        <MessageSlot message={message?.tone === 'error' ? message.text : null} tone="error" />
        <MessageSlot message={message?.tone === 'success' ? message.text : null} tone="success" />
      </div>
      {list.isLoading && <Loading label={intl.formatMessage({ id: 'notifications.loading' })} />}
      {list.error && list.notifications.length === 0 && <Banner tone="error">{errorText(list.error)}</Banner>}
      {!list.isLoading && !list.error && list.notifications.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: 'notifications.empty.title' })}>
          <p>
            <FormattedMessage id="notifications.empty.text" />
          </p>
        </EmptyState>
      )}
      {list.notifications.length > 0 && (
        <div className="stack">
          <ol
            className="card notification-list"
            ref={listRef}
            tabIndex={-1}
            aria-label={intl.formatMessage({ id: 'notifications.title' })}
          >
            {list.notifications.map((notification) => (
              <NotificationItem key={notification.id} notification={notification} />
            ))}
          </ol>
          {list.hasMore && (
            <Button block pending={list.isLoadingMore} onClick={() => void list.loadMore()}>
              <FormattedMessage id="notifications.loadMore" />
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
