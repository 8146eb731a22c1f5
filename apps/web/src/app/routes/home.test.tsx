import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { storeToken } from '../../lib/auth-token';
import { stubApi } from '../../testing/api-stub';
import { makeQuestion } from '../../testing/factories';
import { openAppAt } from '../open-app';

const asked = makeQuestion({ id: 3, qid: 3, title: 'Is remote work here to stay?' });

// The app's own data cache, which following someone tells to load the feed again: alone in its file, so no other test
// shares it.
describe('the empty feed', () => {
  it('shows people to follow under its message, and following one fills the feed', { timeout: 15_000 }, async () => {
    storeToken('t0k3n');
    let following = false;
    const { on } = stubApi();
    on('GET /api/polls/questions/', () => ({ body: { qotd: null, questions: following ? [asked] : [], next: null } }));
    on('GET /api/polls/categories/', { body: [] });
    on('GET /api/notifications/live/', { body: { unread: 0 } });
    on('GET /api/auth/suggestions/', {
      body: { people: [{ id: 12, name: 'Ada', asked: 4, reason: 'Asks about Science' }] },
    });
    on(
      'POST /api/auth/follow/:user/',
      () => {
        following = true;
        return { body: { connected: true } };
      },
      { params: { user: 12 } },
    );
    await openAppAt('/');
    expect(await screen.findByText('No question exist from your connections!')).toBeInTheDocument();
    const suggested = await screen.findByRole('list', { name: 'Suggested people' });
    expect(within(suggested).getByText(/Asks about Science/)).toBeInTheDocument();
    await userEvent.click(within(suggested).getByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('article', { name: asked.title })).toBeInTheDocument();
    expect(screen.queryByText('No question exist from your connections!')).not.toBeInTheDocument();
  });
});
