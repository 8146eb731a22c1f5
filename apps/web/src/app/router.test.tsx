import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { storeToken } from '../lib/auth-token';
import { clearRelateSelection, toggleRelateSelection, useRelateSelection } from '../features/questions/relate-selection';
import { stubApi } from '../testing/api-stub';
import { makeQuestion } from '../testing/factories';
import { routes } from './router';

function openAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

const emptyFeed = { qotd: null, questions: [], next: null };

describe('app routes', () => {
  it('sends a visitor to log in', async () => {
    stubApi(() => undefined);
    const router = openAt('/wall');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'POLLSCOPE home' })).toHaveAttribute('href', '/');
  });

  it('sends a signed-in person from log-in to the feed, with the account icons in the header', async () => {
    storeToken('t0k3n');
    stubApi(({ path }) => {
      if (path === '/api/polls/questions/') return { body: emptyFeed };
      if (path === '/api/polls/categories/') return { body: [{ id: 1, name: 'Politics' }] };
      return undefined;
    });
    const router = openAt('/login');
    expect(await screen.findByText('No question exist from your connections!')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(screen.getByRole('link', { name: 'My account' })).toHaveAttribute('href', '/myaccount');
    expect(screen.getByRole('link', { name: 'Politics' })).toHaveAttribute('href', '/category/1');
  });

  it('opens the notifications from the bell in the header', async () => {
    storeToken('t0k3n');
    stubApi(({ path, headers }) => {
      if (path === '/api/polls/questions/') return { body: emptyFeed };
      if (path === '/api/polls/categories/') return { body: [] };
      if (path === '/api/notifications/live/' && headers.Accept === 'application/json') return { body: { unread: 0 } };
      if (path === '/api/notifications/') return { body: { notifications: [], next: null, unread: 0 } };
      return undefined;
    });
    const router = openAt('/');
    await screen.findByText('No question exist from your connections!');
    await userEvent.click(screen.getByRole('link', { name: 'Notifications' }));
    expect(await screen.findByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/notifications');
    expect(document.title).toBe('Notifications · POLLSCOPE');
  });

  it('labels the ASK link in the footer and links every footer page', async () => {
    stubApi(() => undefined);
    openAt('/rules');
    expect(await screen.findByRole('heading', { name: 'Rules' })).toBeInTheDocument();
    const footerLinks = ['Contact', 'Rules', 'ASK', 'Privacy', 'Stats'].map((name) => screen.getByRole('link', { name }).getAttribute('href'));
    expect(footerLinks).toEqual(['/contact', '/rules', '/create', '/privacy', '/stats']);
  });

  it('skips the quiz for sign-up when there is none', async () => {
    stubApi(() => ({ body: [] }));
    const router = openAt('/quiz');
    expect(await screen.findByRole('heading', { name: 'Join POLLSCOPE' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/register');
  });

  it('shows "Page not found!" for an unknown address', async () => {
    stubApi(() => undefined);
    openAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found!' })).toBeInTheDocument();
  });

  it('goes to log in when the session has ended', async () => {
    storeToken('expired');
    stubApi(() => ({ status: 401, body: { message: 'Sign in again' } }));
    const router = openAt('/connections');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('clears the relate selection when relate opens', async () => {
    storeToken('t0k3n');
    const first = makeQuestion({
      id: 1,
      qid: 1,
      title: 'Tea or coffee?',
      answer: { choice: 1 },
      result: {
        count: 9,
        answers: [
          { key: 1, percent: 50 },
          { key: 2, percent: 50 },
        ],
      },
    });
    const second = makeQuestion({
      id: 2,
      qid: 2,
      title: 'Cats or dogs?',
      choices: [
        { key: 1, value: 'Cats' },
        { key: 2, value: 'Dogs' },
      ],
      answer: { choice: 2 },
    });
    stubApi(({ method, path }) => {
      if (path !== '/api/polls/relate/1/2/') return undefined;
      if (method === 'GET') return { body: { first, second, association: null } };
      return {
        body: {
          question: {
            ...first,
            result: {
              count: 6,
              answers: [
                { key: 1, percent: 67 },
                { key: 2, percent: 33 },
              ],
            },
          },
          overall: first.result,
          association: null,
        },
      };
    });
    clearRelateSelection();
    toggleRelateSelection(1);
    let seen: readonly number[] = [1];
    function SelectionProbe() {
      seen = useRelateSelection();
      return null;
    }
    render(<SelectionProbe />);
    openAt('/relate/1/2/');
    expect(await screen.findByRole('heading', { name: 'Relate QID001 and QID002' })).toBeInTheDocument();
    expect(seen).toEqual([]);
  });
});
