import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { storeToken } from '../../../lib/auth-token';
import { stubApi } from '../../../testing/api-stub';
import { controlledEventStream } from '../../../testing/event-stream-stub';
import { renderScreen } from '../../../testing/render';
import { NotificationBell } from './notification-bell';

const unreadEvent = (unread: number) => `event: unread\ndata: ${JSON.stringify({ unread })}\n\n`;

/** The bell in a signed-in person's header, with `unread` as the count the API answers first. */
function showBell(unread: number) {
  storeToken('t0k3n');
  const stream = controlledEventStream();
  const { requests, on } = stubApi();
  on('GET /api/notifications/live/', ({ headers }) =>
    headers.Accept === 'text/event-stream' ? stream.response : { body: { unread } },
  );
  renderScreen(<NotificationBell />);
  return { stream, requests };
}

describe('NotificationBell', () => {
  it('shows the unread count, names it, and leads to the notifications', async () => {
    showBell(3);
    const bell = await screen.findByRole('link', { name: 'Notifications, 3 unread' });
    expect(bell).toHaveTextContent('3');
    expect(bell).toHaveAttribute('href', '/notifications');
  });

  it('shows "99+" past 99, and the whole count in its name', async () => {
    showBell(120);
    expect(await screen.findByRole('link', { name: 'Notifications, 120 unread' })).toHaveTextContent('99+');
  });

  it('follows the live count without a reload, and shows none at 0', async () => {
    const { stream, requests } = showBell(3);
    await screen.findByRole('link', { name: 'Notifications, 3 unread' });
    expect(requests.find((request) => request.headers.Accept === 'text/event-stream')?.headers).toMatchObject({
      Authorization: 'Token t0k3n',
    });

    stream.send(unreadEvent(4));
    expect(await screen.findByRole('link', { name: 'Notifications, 4 unread' })).toHaveTextContent('4');

    // Everything read in another tab: the count goes.
    stream.send(unreadEvent(0));
    const bell = await screen.findByRole('link', { name: 'Notifications' });
    expect(bell.textContent).toBe('');
  });
});
