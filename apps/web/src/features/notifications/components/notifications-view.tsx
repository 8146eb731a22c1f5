import { useRef, useState } from 'react';
import { Banner, MessageSlot } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/empty-state';
import { CheckIcon } from '../../../components/ui/icons';
import { Loading } from '../../../components/ui/loading';
import { PageHeader } from '../../../components/ui/page-header';
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
      setMessage({ text: error.message, tone: 'error' });
      return;
    }
    setMessage({ text: 'All notifications marked as read.', tone: 'success' });
    // The button goes once nothing is unread; the keyboard stays on the list rather than falling back to the page's
    // start.
    listRef.current?.focus();
  }

  return (
    <div className="page">
      <div className="notifications-head">
        <PageHeader
          title="Notifications"
          subtitle={list.unread > 0 ? `${list.unread} unread` : undefined}
          actions={
            list.unread > 0 && (
              <Button size="small" pending={marking} onClick={() => void markAll()}>
                <CheckIcon />
                Mark all as read
              </Button>
            )
          }
        />
        <MessageSlot message={message?.tone === 'error' ? message.text : null} tone="error" />
        <MessageSlot message={message?.tone === 'success' ? message.text : null} tone="success" />
      </div>
      {list.isLoading && <Loading label="Loading notifications…" />}
      {list.error && list.notifications.length === 0 && <Banner tone="error">{list.error.message}</Banner>}
      {!list.isLoading && !list.error && list.notifications.length === 0 && (
        <EmptyState title="No notifications yet">
          <p>
            When someone follows you or likes your questions, or a question of yours reaches 1, 10, 100… votes, you will
            see it here.
          </p>
        </EmptyState>
      )}
      {list.notifications.length > 0 && (
        <div className="stack">
          <ol className="card notification-list" ref={listRef} tabIndex={-1} aria-label="Notifications">
            {list.notifications.map((notification) => (
              <NotificationItem key={notification.id} notification={notification} />
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
