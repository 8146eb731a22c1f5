import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { storeToken } from '../lib/auth-token';
import {
  clearRelateSelection,
  toggleRelateSelection,
  useRelateSelection,
} from '../features/questions/relate-selection';
import { stubApi } from '../testing/api-stub';
import { makeQuestion } from '../testing/factories';
import { navigating, openAppAt } from './open-app';

const emptyFeed = { qotd: null, questions: [], next: null };

describe('app routes', () => {
  it('sends a visitor to log in', async () => {
    stubApi();
    const history = await openAppAt('/wall');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/login');
    expect(screen.queryByRole('link', { name: 'Settings' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'POLLSCOPE home' })).toHaveAttribute('href', '/');
  });

  it('sends a signed-in person from log-in to the feed, with the account icons in the header', async () => {
    storeToken('t0k3n');
    const { on } = stubApi();
    on('GET /api/polls/questions/', { body: emptyFeed });
    on('GET /api/polls/categories/', { body: [{ id: 1, name: 'Politics' }] });
    const history = await openAppAt('/login');
    expect(await screen.findByText('No question exist from your connections!')).toBeInTheDocument();
    expect(history.location.pathname).toBe('/');
    expect(screen.getByRole('link', { name: 'Settings' })).toHaveAttribute('href', '/settings');
    expect(screen.getByRole('link', { name: 'My account' })).toHaveAttribute('href', '/myaccount');
    expect(await screen.findByRole('link', { name: 'Politics' })).toHaveAttribute('href', '/category/1');
  });

  it('opens the notifications from the bell in the header', async () => {
    storeToken('t0k3n');
    const { on } = stubApi();
    on('GET /api/polls/questions/', { body: emptyFeed });
    on('GET /api/polls/categories/', { body: [] });
    on('GET /api/notifications/live/', ({ headers }) =>
      headers.Accept === 'application/json' ? { body: { unread: 0 } } : undefined,
    );
    on('GET /api/notifications/', { body: { notifications: [], next: null, unread: 0 } });
    const history = await openAppAt('/');
    await screen.findByText('No question exist from your connections!');
    await navigating(() => userEvent.click(screen.getByRole('link', { name: 'Notifications' })));
    expect(await screen.findByRole('heading', { name: 'Notifications' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/notifications');
    expect(document.title).toBe('Notifications · POLLSCOPE');
  });

  it('labels the ASK link in the footer and links every footer page', async () => {
    stubApi();
    await openAppAt('/rules');
    expect(await screen.findByRole('heading', { name: 'Community rules' })).toBeInTheDocument();
    const footerLinks = ['Contact', 'Rules', 'ASK', 'Privacy', 'Stats'].map((name) =>
      screen.getByRole('link', { name }).getAttribute('href'),
    );
    expect(footerLinks).toEqual(['/contact', '/rules', '/create', '/privacy', '/stats']);
  });

  it('skips the quiz for sign-up when there is none', async () => {
    stubApi().on('GET /api/polls/quizes/', { body: [] });
    const history = await openAppAt('/quiz');
    expect(await screen.findByRole('heading', { name: 'Join POLLSCOPE' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/register');
  });

  it('starts the feed’s request as its route matches, before the screen’s code has arrived, and asks once', async () => {
    storeToken('t0k3n');
    let feedAskedBeforeScreen: boolean | undefined;
    const { requests, on } = stubApi();
    on('GET /api/polls/questions/', () => {
      feedAskedBeforeScreen ??= document.querySelector('h1') === null;
      return { body: emptyFeed };
    });
    on('GET /api/polls/categories/', { body: [] });
    await openAppAt('/');
    await screen.findByText('No question exist from your connections!');
    expect(feedAskedBeforeScreen).toBe(true);
    expect(requests.filter((request) => request.path === '/api/polls/questions/')).toHaveLength(1);
    expect(requests.find((request) => request.path === '/api/polls/questions/')?.headers).toMatchObject({
      Authorization: 'Token t0k3n',
    });
  });

  it('starts no signed-in screen’s request for a visitor, who is sent to log in and back after', async () => {
    const { requests } = stubApi();
    const history = await openAppAt('/question/5');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(`${history.location.pathname}${history.location.search}`).toBe('/login?next=%2Fquestion%2F5');
    expect(requests.filter((request) => request.path.startsWith('/api/polls/question/'))).toEqual([]);
    // Signing up instead, through the quiz or not, leads to the same place.
    expect(screen.getByRole('link', { name: 'Create an account' })).toHaveAttribute(
      'href',
      '/register?next=%2Fquestion%2F5',
    );
    expect(screen.getByRole('link', { name: 'take the quick quiz' })).toHaveAttribute(
      'href',
      '/quiz?next=%2Fquestion%2F5',
    );
  });

  it('carries a shared question from the quiz to sign-up', async () => {
    stubApi().on('GET /api/polls/quizes/', { body: [] });
    const history = await openAppAt('/quiz?next=%2Fquestion%2F5');
    expect(await screen.findByRole('heading', { name: 'Join POLLSCOPE' })).toBeInTheDocument();
    expect(`${history.location.pathname}${history.location.search}`).toBe('/register?next=%2Fquestion%2F5');
    expect(screen.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login?next=%2Fquestion%2F5');
  });

  it('sends someone signed in from the quiz straight to the shared question, and nowhere off the site', async () => {
    storeToken('t0k3n');
    stubApi().on(
      'GET /api/polls/question/:id/',
      { body: makeQuestion({ id: 5, qid: 5, title: 'Shared question' }) },
      { params: { id: 5 } },
    );
    const history = await openAppAt('/quiz?next=%2Fquestion%2F5');
    expect(await screen.findByRole('heading', { name: 'Shared question' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/question/5');

    for (const elsewhere of [
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      'https://evil.example',
      'javascript:alert(1)',
    ]) {
      const { on } = stubApi();
      on('GET /api/polls/questions/', { body: emptyFeed });
      on('GET /api/polls/categories/', { body: [] });
      const sent = await openAppAt(`/login?next=${encodeURIComponent(elsewhere)}`);
      await vi.waitFor(() => expect(sent.location.pathname).toBe('/'));
      cleanup();
    }
  });

  it('opens the new-password screen of a mailed link, even where someone is signed in', async () => {
    storeToken('someone-else');
    stubApi();
    await openAppAt('/reset-password?token=from-the-mail');
    expect(await screen.findByRole('heading', { name: 'Choose a new password' })).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toBeInTheDocument();
  });

  it('says a link without its token is not complete', async () => {
    stubApi();
    await openAppAt('/reset-password');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link is not complete');
    expect(screen.getByRole('link', { name: 'ask for a new link' })).toHaveAttribute('href', '/forgot-password');
  });

  it('goes from log-in to the form for a forgotten password', async () => {
    stubApi();
    const history = await openAppAt('/login');
    const forgotten = await screen.findByRole('link', { name: 'Forgot password?' });
    await navigating(() => userEvent.click(forgotten));
    expect(await screen.findByRole('heading', { name: 'Forgot your password?' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/forgot-password');
  });

  it('lands on log-in, saying so, once the account is deleted from personal info', async () => {
    storeToken('t0k3n');
    const { on } = stubApi();
    on('GET /api/auth/account/', {
      body: {
        id: 12,
        role: 'member',
        first_name: 'Ada',
        birthdate: '1990-06-15',
        country: 826,
        favorite_category: null,
        favorite_topic: null,
        gender: 'F',
      },
    });
    on('GET /api/polls/stats/', { body: { question: 0, answer: 0, like: 0 } });
    on('GET /api/polls/countries/', { body: [] });
    on('GET /api/polls/categories/', { body: [] });
    on('GET /api/notifications/live/', { body: { unread: 0 } });
    on('POST /api/auth/delete/', { status: 204 });
    const history = await openAppAt('/myaccount');
    await userEvent.type(await screen.findByLabelText('Password'), 'correct horse');
    await userEvent.type(screen.getByLabelText('Type “delete my account”'), 'delete my account');
    await userEvent.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText(/Your account is deleted/)).toBeInTheDocument();
    expect(history.location.pathname).toBe('/login');
    expect(screen.queryByRole('link', { name: 'My account' })).not.toBeInTheDocument();
  });

  it('shows "Page not found!" for an unknown address', async () => {
    stubApi();
    await openAppAt('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found!' })).toBeInTheDocument();
  });

  it('says a screen that fails went wrong, inside the frame, in its language', async () => {
    stubApi().on('GET /api/polls/site-stats/', { status: 500, body: { message: 'Down' } });
    vi.doMock('./routes/stats', () => ({
      Component: () => {
        throw new Error('The screen broke');
      },
    }));
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await openAppAt('/stats');
      expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Reload' })).toBeInTheDocument();
      // The frame stays: the site's links still lead on.
      expect(screen.getByRole('navigation', { name: 'Site' })).toBeInTheDocument();
      expect(document.title).toBe('Something went wrong · POLLSCOPE');
    } finally {
      quiet.mockRestore();
      vi.doUnmock('./routes/stats');
    }
  });

  it('goes to log in when the session has ended', async () => {
    storeToken('expired');
    stubApi().on('GET /api/auth/connections/', { status: 401, body: { message: 'Sign in again' } });
    const history = await openAppAt('/connections');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeInTheDocument();
    expect(history.location.pathname).toBe('/login');
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
    const { on } = stubApi();
    const pair = { params: { a: 1, b: 2 } };
    on(
      'GET /api/polls/relate/:a/:b/',
      { body: { first, second, association: null, privacy: null, choices: [] } },
      pair,
    );
    on(
      'POST /api/polls/relate/:a/:b/',
      {
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
          overall: first.result!,
          comparison: null,
          association: null,
          privacy: null,
        },
      },
      pair,
    );
    clearRelateSelection();
    toggleRelateSelection(1);
    let seen: readonly number[] = [1];
    function SelectionProbe() {
      seen = useRelateSelection();
      return null;
    }
    render(<SelectionProbe />);
    await openAppAt('/relate/1/2/');
    expect(await screen.findByRole('heading', { name: 'Relate QID001 and QID002' })).toBeInTheDocument();
    expect(seen).toEqual([]);
  });
});
