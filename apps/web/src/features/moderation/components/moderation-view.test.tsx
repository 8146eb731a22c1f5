import type { Account, ModerationLogEntry, ModerationReport, Question, Role } from '@pollscope/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi, type ApiStub, type StubReply } from '../../../testing/api-stub';
import { makeLogEntry, makeQuestion, makeReportedPerson, makeReportedQuestion } from '../../../testing/factories';
import { renderScreen } from '../../../testing/render';
import { ModerationView, type ModerationTab } from './moderation-view';

const account = (role: Role): Account => ({
  id: 3,
  role,
  first_name: 'Mo',
  birthdate: '1984-01-23',
  country: 620,
  favorite_category: null,
  favorite_topic: null,
  gender: 'F',
});
const open = { query: { status: 'open' } };
const closed = { query: { status: 'closed' } };
const reportPage = (reports: ModerationReport[], next: string | null = null) => ({ body: { reports, next } });
const logPage = (entries: ModerationLogEntry[], next: string | null = null) => ({ body: { entries, next } });

/**
 * Three people reported a question for spam and one for hate, with notes, three of them registered together; one person
 * reported a person.
 */
const spamQuestion = makeReportedQuestion({
  reasons: { spam: 3, hate: 1 },
  reporters: 4,
  reporters_same_network: 2,
  reporters_same_hour: 3,
  first_at: '2026-05-03T08:00:00.000Z',
  last_at: '2026-05-04T09:30:00.000Z',
  notes: ['Links to a shop in every choice.', 'Posted again every day.'],
  question: makeQuestion({
    id: 9,
    qid: 9,
    title: 'Which phone should everyone buy today?',
    user: 12,
    user_name: 'Ada',
  }),
  id: 9,
});
const bob = makeReportedPerson({ notes: ['Insults people under every question.'] });

/** The question card, as the app renders it; here only what the queue hands over. */
const renderQuestion = (question: Question) => (
  <article aria-label={`Card: ${question.title}`}>
    <h3>{question.title}</h3>
  </article>
);

/**
 * The moderation screen at `tab`, for a person of `role`, over the answers `stub` registers; anything else is a 404.
 */
function showModeration(tab: ModerationTab, role: Role, stub: (on: ApiStub['on']) => void = () => undefined) {
  const { requests, on } = stubApi();
  on('GET /api/auth/account/', { body: account(role) });
  stub(on);
  const view = renderScreen(<ModerationView tab={tab} renderQuestion={renderQuestion} />);
  return { ...view, requests, posts: () => requests.filter((request) => request.method === 'POST') };
}

const entryOf = (name: string) => screen.findByRole('article', { name: new RegExp(`^${name}: Reported by`) });

describe('ModerationView: the queue', () => {
  it('shows each reported target as people saw it, with its reasons counted and its notes, in the order the server ranks them', async () => {
    showModeration('open', 'moderator', (on) => {
      on('GET /api/moderation/reports/', reportPage([spamQuestion, bob]), open);
      on('GET /api/moderation/open/', { body: { open: 2 } });
    });
    const question = await entryOf('Which phone should everyone buy today\\?');
    expect(screen.getAllByRole('article', { name: /Reported by/ })).toEqual([question, await entryOf('Bob')]);
    expect(screen.getByText('2 reported questions and people wait for a moderator.')).toBeInTheDocument();

    expect(within(question).getByRole('heading', { level: 2 })).toHaveTextContent('Reported by 4 people');
    expect(within(question).getByText('Question')).toBeInTheDocument();
    const reasons = within(within(question).getByRole('list', { name: 'Reasons' })).getAllByRole('link');
    expect(reasons.map((reason) => reason.textContent)).toEqual(['Spam: 3', 'Hate: 1']);
    expect(reasons[0]).toHaveAccessibleName(/^Spam ?: 3$/);
    expect(reasons[0]).toHaveAttribute('href', '/rules#spam');
    expect(reasons[0]).toHaveAttribute('title', 'Rule 1: No spam');
    expect(within(question).getByText('Links to a shop in every choice.')).toBeInTheDocument();
    expect(within(question).getByText('Posted again every day.')).toBeInTheDocument();
    expect(
      within(question).getByText('Registered together: 2 reporters from the same network, 3 within an hour of another'),
    ).toBeInTheDocument();
    expect(
      within(question).getByRole('article', { name: 'Card: Which phone should everyone buy today?' }),
    ).toBeInTheDocument();
    expect(within(question).getByText('3 May 2026, 08:00 UTC')).toHaveAttribute('datetime', spamQuestion.first_at);

    const person = await entryOf('Bob');
    expect(within(person).getByRole('heading', { level: 2 })).toHaveTextContent('Reported by 1 person');
    expect(within(person).getByRole('link', { name: /Bob/ })).toHaveAttribute('href', '/user/21');
    expect(within(person).getByText('UID021')).toBeInTheDocument();
    expect(within(person).getByText('Insults people under every question.')).toBeInTheDocument();
    expect(within(person).queryByText(/Registered together/)).not.toBeInTheDocument();
  });

  it('offers only the actions that apply to each target', async () => {
    const removed = makeReportedQuestion({
      status: 'closed',
      question: makeQuestion({ moderation: { status: 'removed', reason: 'Spam' } }),
    });
    const { unmount } = showModeration('open', 'moderator', (on) =>
      on('GET /api/moderation/reports/', reportPage([spamQuestion, bob]), open),
    );
    const actions = async (name: string) =>
      within(within(await entryOf(name)).getByRole('group', { name: /^Act on/ }))
        .getAllByRole('button')
        .map((button) => button.textContent);
    expect(await actions('Which phone should everyone buy today\\?')).toEqual(['Dismiss', 'Remove', 'Warn']);
    expect(await actions('Bob')).toEqual(['Dismiss', 'Suspend', 'Warn']);
    unmount();

    showModeration('closed', 'moderator', (on) =>
      on('GET /api/moderation/reports/', reportPage([removed, makeReportedPerson({ status: 'closed' })]), closed),
    );
    expect(await actions('Tea or coffee\\?')).toEqual(['Restore', 'Warn']);
    expect(await actions('Bob')).toEqual(['Suspend', 'Lift suspension', 'Warn']);
  });

  it('asks for a reason before removing, then acts and shows the queue as it now is', async () => {
    let removed = false;
    const { user, posts } = showModeration('open', 'moderator', (on) => {
      on('GET /api/moderation/reports/', () => reportPage(removed ? [bob] : [spamQuestion, bob]), open);
      on('GET /api/moderation/open/', () => ({ body: { open: removed ? 1 : 2 } }));
      on('POST /api/moderation/actions/', ({ body }) => {
        removed = true;
        return { body: makeLogEntry({ action: 'remove', target_id: 9, reason: body?.reason }) };
      });
    });
    const entry = await entryOf('Which phone should everyone buy today\\?');
    const remove = within(entry).getByRole('button', { name: 'Remove' });
    await user.click(remove);

    const dialog = screen.getByRole('dialog', { name: 'Remove this question' });
    expect(dialog).toHaveAccessibleDescription(/goes for everyone but its author/);
    const reason = within(dialog).getByLabelText('Reason');
    expect(reason).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(within(dialog).getByText('Say why: the person is told.')).toBeInTheDocument();
    expect(posts()).toEqual([]);

    await user.type(reason, 'Advertising, not a poll.');
    await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Removed “Which phone should everyone buy today?”.')).toBeInTheDocument();
    expect(posts().map((request) => request.body)).toEqual([
      { target: 'question', id: 9, action: 'remove', reason: 'Advertising, not a poll.' },
    ]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByRole('article', { name: /^Which phone/ })).not.toBeInTheDocument();
    expect(screen.getByText('1 reported question or person waits for a moderator.')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Open reports' })).toHaveFocus();
  });

  it('suspends for the length chosen, from now', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-05-04T12:00:00.000Z') });
    const { user, posts } = showModeration('open', 'moderator', (on) => {
      on('GET /api/moderation/reports/', reportPage([bob]), open);
      on('POST /api/moderation/actions/', { body: makeLogEntry({ action: 'suspend', target: 'user', target_id: 21 }) });
    });
    await user.click(within(await entryOf('Bob')).getByRole('button', { name: 'Suspend' }));
    const dialog = screen.getByRole('dialog', { name: 'Suspend Bob' });
    const length = within(dialog).getByLabelText('How long');
    expect(length).toHaveDisplayValue('1 week');
    await user.selectOptions(length, '3 days');
    await user.type(within(dialog).getByLabelText('Reason'), 'Insults after a warning.');
    await user.click(within(dialog).getByRole('button', { name: 'Suspend' }));
    await screen.findByText('Suspended “Bob”.');

    await user.click(within(await entryOf('Bob')).getByRole('button', { name: 'Suspend' }));
    const again = screen.getByRole('dialog', { name: 'Suspend Bob' });
    await user.selectOptions(within(again).getByLabelText('How long'), 'Until a moderator lifts it');
    await user.type(within(again).getByLabelText('Reason'), 'For good.');
    await user.click(within(again).getByRole('button', { name: 'Suspend' }));
    await vi.waitFor(() => expect(posts()).toHaveLength(2));
    expect(posts().map((request) => request.body)).toEqual([
      {
        target: 'user',
        id: 21,
        action: 'suspend',
        reason: 'Insults after a warning.',
        until: '2026-05-07T12:00:00.000Z',
      },
      { target: 'user', id: 21, action: 'suspend', reason: 'For good.' },
    ]);
    vi.useRealTimers();
  });

  it('shows why an action was refused, and keeps the dialog open', async () => {
    const { user } = showModeration('open', 'moderator', (on) => {
      on('GET /api/moderation/reports/', reportPage([bob]), open);
      on('POST /api/moderation/actions/', {
        status: 403,
        body: { message: 'Only an admin can act on a moderator or an admin' },
      });
    });
    await user.click(within(await entryOf('Bob')).getByRole('button', { name: 'Warn' }));
    const dialog = screen.getByRole('dialog', { name: 'Warn Bob' });
    await user.type(within(dialog).getByLabelText('Reason'), 'Mind the rules.');
    await user.click(within(dialog).getByRole('button', { name: 'Warn' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Only an admin can act on a moderator or an admin',
    );
  });

  it('says when nothing waits, and loads more with the cursor of the last page', async () => {
    const { unmount } = showModeration('open', 'moderator', (on) =>
      on('GET /api/moderation/reports/', reportPage([]), open),
    );
    expect(await screen.findByText('No open reports')).toBeInTheDocument();
    unmount();

    const { user } = showModeration('closed', 'moderator', (on) => {
      on('GET /api/moderation/reports/', reportPage([makeReportedQuestion({ status: 'closed' })], 'c2'), closed);
      on('GET /api/moderation/reports/', reportPage([makeReportedPerson({ status: 'closed' })]), {
        query: { status: 'closed', cursor: 'c2' },
      });
    });
    await entryOf('Tea or coffee\\?');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await entryOf('Bob')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });
});

describe('ModerationView: the log, roles, and who may see it', () => {
  it('tells each action, newest first as the server sends them, a page at a time', async () => {
    const { user } = showModeration('log', 'moderator', (on) => {
      on(
        'GET /api/moderation/log/',
        logPage(
          [
            makeLogEntry({
              id: 2,
              action: 'suspend',
              target: 'user',
              target_id: 21,
              reason: 'Insults after a warning.',
              until: '2026-05-11T12:00:00.000Z',
            }),
            makeLogEntry({ id: 1, moderator: { id: null, name: '' } }),
          ],
          'c2',
        ),
        { query: {} },
      );
      on(
        'GET /api/moderation/log/',
        logPage([
          makeLogEntry({
            id: 0,
            action: 'dismiss',
            target_id: 4,
            reason: 'Not against the rules.',
            own_question: true,
          }),
        ]),
        { query: { cursor: 'c2' } },
      );
    });
    const log = await screen.findByRole('list', { name: 'Moderation log' });
    const items = () =>
      within(log)
        .getAllByRole('listitem')
        .map((item) => item.querySelector('p')?.textContent);
    expect(items()).toEqual(['Mo suspended UID021 until 11 May 2026', 'A former moderator removed question QID007']);
    expect(within(log).getByText('Insults after a warning.')).toBeInTheDocument();
    expect(within(log).getByRole('link', { name: 'UID021' })).toHaveAttribute('href', '/user/21');
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await within(log).findByText('Not against the rules.');
    expect(items()).toEqual([
      'Mo suspended UID021 until 11 May 2026',
      'A former moderator removed question QID007',
      'Mo dismissed the reports on question QID004, their own question, which no other admin could decide',
    ]);
  });

  it('lets an admin name a moderator by UID or profile link, and shows the server’s refusal', async () => {
    let answer: StubReply<'POST /api/moderation/roles/'> = { body: { user: 21, role: 'moderator' } };
    const { user, posts } = showModeration('people', 'admin', (on) => on('POST /api/moderation/roles/', () => answer));
    expect(await screen.findByRole('link', { name: 'Moderators' })).toHaveAttribute('href', '/moderation/people');
    const person = screen.getByLabelText('Person');
    await user.click(screen.getByRole('button', { name: 'Set role' }));
    expect(screen.getByText(/Give the person’s UID/)).toBeInTheDocument();

    await user.type(person, 'UID021');
    await user.click(screen.getByRole('button', { name: 'Set role' }));
    expect(await screen.findByRole('status')).toHaveTextContent('UID021 is now a moderator.');

    answer = { status: 403, body: { message: 'An admin stays an admin' } };
    await user.clear(person);
    await user.type(person, 'https://pollscope.app/user/4/answered');
    await user.selectOptions(screen.getByLabelText('Role'), 'Member');
    await user.click(screen.getByRole('button', { name: 'Set role' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('An admin stays an admin');
    expect(posts().map((request) => request.body)).toEqual([
      { user: 21, role: 'moderator' },
      { user: 4, role: 'member' },
    ]);
  });

  it('shows moderators no admin tab, and members none of it', async () => {
    const { unmount } = showModeration('open', 'moderator', (on) =>
      on('GET /api/moderation/reports/', reportPage([]), open),
    );
    expect(await screen.findByRole('link', { name: 'Log' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Moderators' })).not.toBeInTheDocument();
    unmount();

    const { requests } = showModeration('open', 'member');
    expect(await screen.findByText('For moderators only')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Moderation' })).not.toBeInTheDocument();
    expect(requests.map((request) => request.path)).toEqual(['/api/auth/account/']);
  });
});
