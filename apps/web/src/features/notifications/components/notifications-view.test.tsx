import type { Notification, NotificationPage } from '@pollscope/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi, type ApiStub } from '../../../testing/api-stub';
import { controlledEventStream } from '../../../testing/event-stream-stub';
import type { Locale } from '../../../i18n/locales';
import { renderScreen } from '../../../testing/render';
import { NotificationBell } from './notification-bell';
import { NotificationsView } from './notifications-view';

const bob = { id: 21, name: 'Bob' };
const ann = { id: 22, name: 'Ann' };
const cy = { id: 23, name: 'Cy' };
const remoteWork = { id: 12, qid: 12, title: 'Should remote work stay the norm after the pandemic?' };
const shortened = "QID012 'Should remote work stay the norm…'";
const teaOrCoffee = { id: 7, qid: 7, title: 'Tea or coffee?' };

function notification(overrides: Partial<Notification> & Pick<Notification, 'id' | 'kind'>): Notification {
  return {
    created_at: '2026-05-04T10:00:00.000Z',
    read: true,
    actors: [],
    actor_count: 0,
    question: null,
    count: null,
    ...overrides,
  };
}

const followed = notification({ id: 5, kind: 'follow', read: false, actors: [bob], actor_count: 1 });
const likedByTwo = notification({
  id: 4,
  kind: 'like',
  read: false,
  actors: [bob, ann],
  actor_count: 2,
  question: remoteWork,
});
const likedByFour = notification({ id: 3, kind: 'like', actors: [bob, ann, cy], actor_count: 4, question: remoteWork });
const likedByOne = notification({ id: 2, kind: 'like', actors: [cy], actor_count: 1, question: teaOrCoffee });
const reachedVotes = notification({ id: 1, kind: 'votes', question: remoteWork, count: 100 });

const page = (notifications: Notification[], next: string | null = null): NotificationPage => ({
  notifications,
  next,
  unread: notifications.filter((item) => !item.read).length,
});

/** The notifications screen over the answers `stub` registers; anything else is a 404. */
function showNotifications(stub: (on: ApiStub['on']) => void, locale: Locale = 'en') {
  const { requests, on } = stubApi();
  stub(on);
  const view = renderScreen(<NotificationsView />, { locale });
  return { requests, ...view };
}

/** Each notification as a person reads it: its sentence. */
const sentences = () => screen.getAllByRole('listitem').map((item) => item.querySelector('p')?.textContent);

describe('NotificationsView', () => {
  it('says each notification in words, newest first, with links to the people and the question', async () => {
    showNotifications((on) =>
      on('GET /api/notifications/', { body: page([followed, likedByTwo, likedByFour, likedByOne, reachedVotes]) }),
    );
    await screen.findByRole('list', { name: 'Notifications' });
    expect(sentences()).toEqual([
      'Bob followed you',
      `Bob and Ann liked ${shortened}`,
      `Bob and 3 others liked ${shortened}`,
      "Cy liked QID007 'Tea or coffee?'",
      `Your question ${shortened} reached 100 votes`,
    ]);

    const [follow, likes] = screen.getAllByRole('listitem');
    expect(within(follow).getByRole('link', { name: 'Bob' })).toHaveAttribute('href', '/user/21');
    expect(within(likes).getByRole('link', { name: 'Ann' })).toHaveAttribute('href', '/user/22');
    const question = within(likes).getByRole('link', { name: shortened });
    expect(question).toHaveAttribute('href', '/question/12');
    // The whole title is there on pointing at the shortened one.
    expect(question).toHaveAttribute('title', remoteWork.title);
    expect(within(follow).getByText('4 May 2026')).toHaveAttribute('datetime', followed.created_at);
  });

  it('sets the unread ones apart in words, and marks nothing read by being shown', async () => {
    const { requests } = showNotifications((on) =>
      on('GET /api/notifications/', { body: page([followed, likedByTwo, likedByFour]) }),
    );
    await screen.findByRole('list', { name: 'Notifications' });
    expect(screen.getByText('2 unread')).toBeInTheDocument();
    const labels = screen.getAllByRole('listitem').map((item) => within(item).queryByText('Unread') !== null);
    expect(labels).toEqual([true, true, false]);
    expect(requests.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('marks all read at once in the list and in the bell', async () => {
    const stream = controlledEventStream();
    const { requests, on } = stubApi();
    on('GET /api/notifications/live/', ({ headers }) =>
      headers.Accept === 'text/event-stream' ? stream.response : { body: { unread: 2 } },
    );
    on('GET /api/notifications/', { body: page([followed, likedByTwo, likedByFour]) });
    on('POST /api/notifications/read/', { body: { unread: 0 } });
    const { user } = renderScreen(
      <>
        <NotificationBell />
        <NotificationsView />
      </>,
    );
    await screen.findByRole('link', { name: 'Notifications, 2 unread' });
    await screen.findByRole('list', { name: 'Notifications' });

    await user.click(screen.getByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByRole('link', { name: 'Notifications' })).toBeInTheDocument();
    expect(screen.queryByText('Unread')).not.toBeInTheDocument();
    expect(screen.queryByText('2 unread')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('All notifications marked as read.');
    expect(screen.getByRole('list', { name: 'Notifications' })).toHaveFocus();
    // All of them: the call names no ids.
    expect(requests.filter((request) => request.method === 'POST')).toEqual([
      expect.objectContaining({ path: '/api/notifications/read/', body: undefined }),
    ]);
  });

  it('keeps them unread and says why when marking fails', async () => {
    const { user } = showNotifications((on) => {
      on('GET /api/notifications/', { body: page([followed]) });
      on('POST /api/notifications/read/', { status: 503, body: { message: 'The server is busy, try again.' } });
    });
    await user.click(await screen.findByRole('button', { name: 'Mark all as read' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The server is busy, try again.');
    expect(screen.getByText('Unread')).toBeInTheDocument();
  });

  it('loads the next page with the cursor of the last one', async () => {
    const { requests, user } = showNotifications((on) => {
      on('GET /api/notifications/', { body: page([followed], 'c2') }, { query: {} });
      on('GET /api/notifications/', { body: page([reachedVotes]) }, { query: { cursor: 'c2' } });
    });
    await screen.findByRole('list', { name: 'Notifications' });
    expect(sentences()).toEqual(['Bob followed you']);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await screen.findByText(/reached 100 votes/);
    expect(sentences()).toEqual(['Bob followed you', `Your question ${shortened} reached 100 votes`]);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(requests.filter((request) => request.path.includes('cursor')).map((request) => request.path)).toEqual([
      '/api/notifications/?cursor=c2',
    ]);
  });

  it('tells what a moderator did and why, linking the question when there is one', async () => {
    const removed = notification({
      id: 9,
      kind: 'moderation',
      question: teaOrCoffee,
      moderation: { action: 'remove', reason: 'Advertising, not a poll.', until: null },
    });
    const suspended = notification({
      id: 8,
      kind: 'moderation',
      moderation: { action: 'suspend', reason: 'Insults after a warning.', until: '2026-05-11T12:00:00.000Z' },
    });
    const warned = notification({
      id: 7,
      kind: 'moderation',
      moderation: { action: 'warn', reason: 'Mind the rules.', until: null },
    });
    showNotifications((on) => on('GET /api/notifications/', { body: page([removed, suspended, warned]) }));
    await screen.findByRole('list', { name: 'Notifications' });
    expect(sentences()).toEqual([
      "A moderator removed your question QID007 'Tea or coffee?'",
      'A moderator suspended your account until 11 May 2026',
      'A moderator warned you',
    ]);
    const [first, second] = screen.getAllByRole('listitem');
    expect(within(first).getByRole('link', { name: "QID007 'Tea or coffee?'" })).toHaveAttribute('href', '/question/7');
    expect(within(first).getByText('Reason: Advertising, not a poll.')).toBeInTheDocument();
    expect(within(second).getByText('Reason: Insults after a warning.')).toBeInTheDocument();
  });

  it('says so when there is nothing yet', async () => {
    showNotifications((on) => on('GET /api/notifications/', { body: page([]) }));
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Mark all as read' })).not.toBeInTheDocument();
  });

  it('says them in the reader’s language, with its plurals, quotes and dates', async () => {
    const all = page([followed, likedByTwo, likedByFour, reachedVotes]);
    showNotifications((on) => on('GET /api/notifications/', { body: all }), 'ja');
    await screen.findByRole('list', { name: '通知' });
    expect(sentences()).toEqual([
      'Bobさんがあなたをフォローしました',
      'BobさんとAnnさんがQID012「Should remote work stay the norm…」にいいねしました',
      'Bobさんほか3人がQID012「Should remote work stay the norm…」にいいねしました',
      'あなたの質問QID012「Should remote work stay the norm…」が100票に達しました',
    ]);
    expect(screen.getAllByText('2026年5月4日')).toHaveLength(4);
  });

  it('says them right to left in Arabic, with its plural forms', async () => {
    showNotifications((on) => on('GET /api/notifications/', { body: page([likedByFour, reachedVotes]) }), 'ar');
    await screen.findByRole('list', { name: 'الإشعارات' });
    expect(sentences()).toEqual([
      'أُعجب Bob و3 أشخاص آخرين بسؤالك QID012 «Should remote work stay the norm…»',
      'وصل سؤالك QID012 «Should remote work stay the norm…» إلى 100 صوت',
    ]);
  });
});
