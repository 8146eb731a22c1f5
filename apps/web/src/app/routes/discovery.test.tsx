import type { Connection } from '@pollscope/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SWRConfig } from 'swr';
import { describe, expect, it } from 'vitest';
import { storeToken } from '../../lib/auth-token';
import { stubApi, type ApiStub } from '../../testing/api-stub';
import { makeQuestion } from '../../testing/factories';
import type { AppHistory } from '../../lib/navigation';
import { navigating, openAppAt } from '../open-app';

const remote = makeQuestion({ id: 3, qid: 3, title: 'Is remote work here to stay?' });
const ada = { id: 12, name: 'Ada', asked: 4, connected: false };

/**
 * A signed-in person's app at `path`, its calls answered by what `stub` registers and, for the frame around every
 * screen, by empty answers.
 */
async function openAt(path: string, stub: (on: ApiStub['on']) => void) {
  storeToken('t0k3n');
  const api = stubApi();
  api.on('GET /api/polls/categories/', { body: [{ id: 1, name: 'Politics' }] });
  api.on('GET /api/notifications/live/', { body: { unread: 0 } });
  stub(api.on);
  // A data cache of the test's own, as if the app had just started.
  const history = await openAppAt(path, (app) => <SWRConfig value={{ provider: () => new Map() }}>{app}</SWRConfig>);
  return { history, user: userEvent.setup(), ...api };
}

const where = ({ location }: AppHistory) => `${location.pathname}${location.search}`;

describe('search', () => {
  // The first test of the file loads the screens' code.
  it(
    'searches from the header and shows the questions found as cards, and the people as the other tab',
    { timeout: 15_000 },
    async () => {
      const { history, user } = await openAt('/', (on) => {
        on('GET /api/polls/questions/', { body: { qotd: null, questions: [remote], next: null } });
        on('GET /api/polls/search/', { body: { questions: [remote], next: null } }, { query: { q: 'remote' } });
        on('GET /api/auth/people/', { body: { people: [] } }, { query: { q: 'remote' } });
      });
      await screen.findByRole('article', { name: remote.title });
      await navigating(() => user.type(screen.getByRole('searchbox', { name: 'Search' }), 'remote{Enter}'));

      expect(await screen.findByRole('heading', { name: 'Search' })).toBeInTheDocument();
      expect(where(history)).toBe('/search?q=remote');
      const found = await screen.findByRole('region', { name: 'Questions found' });
      expect(within(found).getByRole('article', { name: remote.title })).toBeInTheDocument();
      // The screen's own field takes the words; the header shows none there.
      expect(screen.getAllByRole('searchbox')).toHaveLength(1);
      expect(screen.getByRole('searchbox')).toHaveValue('remote');

      await navigating(() => user.click(screen.getByRole('link', { name: 'People' })));
      expect(await screen.findByText('Nobody’s first name starts with “remote”.')).toBeInTheDocument();
      expect(where(history)).toBe('/search/people?q=remote');
    },
  );

  it('follows the typing after a pause, and connects to a person found', async () => {
    const { history, user, requests } = await openAt('/search/people', (on) => {
      on('GET /api/auth/people/', { body: { people: [ada] } }, { query: { q: 'ad' } });
      on('POST /api/auth/follow/:user/', { body: { connected: true } }, { params: { user: 12 } });
    });
    const field = await screen.findByRole('searchbox', { name: 'Search' });
    expect(field).toHaveFocus();
    await user.type(field, 'ad');
    const people = await screen.findByRole('list', { name: 'People found' });
    expect(where(history)).toBe('/search/people?q=ad');
    expect(within(people).getByRole('link', { name: 'Ada' })).toHaveAttribute('href', '/user/12');
    expect(within(people).getByText(/Asked 4 questions/)).toBeInTheDocument();

    await user.click(within(people).getByRole('button', { name: 'Connect' }));
    expect(await within(people).findByRole('button', { name: 'Connected' })).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'POST').map((request) => request.path)).toEqual([
      '/api/auth/follow/12/',
    ]);
    // One search for the words once typed, none for each letter on the way.
    expect(
      requests.filter((request) => request.path.startsWith('/api/auth/people/')).map((request) => request.path),
    ).toEqual(['/api/auth/people/?q=ad']);
  });
});

describe('people to follow', () => {
  it('are shown on the connections screen, and one followed joins the table', async () => {
    let connections: Connection[] = [];
    const { user } = await openAt('/connections', (on) => {
      on('GET /api/auth/connections/', () => ({ body: connections }));
      on('GET /api/auth/suggestions/', {
        body: { people: [{ id: 12, name: 'Ada', asked: 4, reason: 'Followed by 3 people you follow' }] },
      });
      on(
        'POST /api/auth/follow/:user/',
        () => {
          connections = [{ id: 12, name: 'Ada', time: '2026-05-04T10:00:00.000Z', question: 4, answer: 0, like: 0 }];
          return { body: { connected: true } };
        },
        { params: { user: 12 } },
      );
    });
    expect(await screen.findByText('No Connections!')).toBeInTheDocument();
    const suggested = await screen.findByRole('list', { name: 'Suggested people' });
    expect(within(suggested).getByText(/Followed by 3 people you follow/)).toBeInTheDocument();
    await user.click(within(suggested).getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('link', { name: 'UID012' })).toHaveAttribute('href', '/user/12');
    expect(within(suggested).getByRole('button', { name: 'Connected' })).toBeInTheDocument();
  });
});

describe('trending', () => {
  it('is a tab of the category bar before the categories, showing the questions answered most', async () => {
    const { history, user } = await openAt('/', (on) => {
      on('GET /api/polls/questions/', { body: { qotd: null, questions: [], next: null } });
      on('GET /api/auth/suggestions/', { body: { people: [] } });
      on('GET /api/polls/trending/', { body: { questions: [remote] } });
    });
    const bar = await screen.findByRole('navigation', { name: 'Categories' });
    await within(bar).findByRole('link', { name: 'Politics' });
    expect(
      within(bar)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['For you', 'Trending', 'Politics']);
    await navigating(() => user.click(within(bar).getByRole('link', { name: 'Trending' })));
    expect(await screen.findByRole('article', { name: remote.title })).toBeInTheDocument();
    expect(where(history)).toBe('/trending');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});
