import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './app/router';
import { storeToken } from './lib/auth-token';
import { stubApi } from './testing/api-stub';
import { makeQuestion } from './testing/factories';

const asked = makeQuestion({ id: 3, qid: 3, title: 'Is remote work here to stay?' });

// The app's own data cache, which the script fills: alone in its file, so no other test shares it.
describe('the page’s first script', () => {
  it('starts the feed for a signed-in person at /, whose screen then shows it without asking again', { timeout: 15_000 }, async () => {
    storeToken('t0k3n');
    const { requests } = stubApi(({ path }) => {
      if (path === '/api/polls/questions/') return { body: { qotd: null, questions: [asked], next: null } };
      if (path === '/api/polls/categories/') return { body: [] };
      if (path === '/api/notifications/live/') return { body: { unread: 0 } };
      return undefined;
    });
    await import('./early-data');
    expect(requests.map(({ path }) => path)).toEqual(['/api/polls/questions/', '/api/polls/categories/']);

    render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/'] })} />);
    expect(await screen.findByRole('article', { name: asked.title })).toBeInTheDocument();
    expect(requests.filter(({ path }) => path === '/api/polls/questions/')).toHaveLength(1);
  });
});
