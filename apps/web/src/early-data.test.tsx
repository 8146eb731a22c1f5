import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { routes } from './app/router';
import { startFirstScreen } from './early-data';
import { storeToken } from './lib/auth-token';
import { stubApi } from './testing/api-stub';
import { makeQuestion } from './testing/factories';

const asked = makeQuestion({ id: 3, qid: 3, title: 'Is remote work here to stay?' });
const feedScreen = { modules: ['/assets/home-0.js'], styles: ['/assets/feature-questions-0.css'] };

function stubFirstScreen() {
  const api = stubApi();
  api.on('GET /api/polls/questions/', { body: { qotd: null, questions: [asked], next: null } });
  api.on('GET /api/polls/categories/', { body: [] });
  api.on('GET /api/auth/account/', {
    body: {
      id: 7,
      role: 'member',
      first_name: 'Ben',
      birthdate: '1990-11-20',
      country: 724,
      favorite_category: null,
      favorite_topic: null,
      gender: 'M',
    },
  });
  api.on('GET /api/notifications/live/', { body: { unread: 0 } });
  return api;
}

// The app's own data cache, which the script fills: alone in its file, so no other test shares it.
describe('the page’s first script', () => {
  it('starts nothing for a visitor', () => {
    const { requests } = stubFirstScreen();
    startFirstScreen(feedScreen);
    expect(requests).toEqual([]);
    expect(document.head.querySelector('link[rel="modulepreload"]')).toBeNull();
  });

  it(
    'starts the feed for a signed-in person at /, whose screen then shows it without asking again',
    { timeout: 15_000 },
    async () => {
      storeToken('t0k3n');
      const { requests } = stubFirstScreen();
      startFirstScreen(feedScreen);
      expect(requests.map(({ path }) => path)).toEqual([
        '/api/polls/questions/',
        '/api/polls/categories/',
        '/api/auth/account/',
        '/api/notifications/live/',
      ]);
      expect(requests.every(({ headers }) => headers.Authorization === 'Token t0k3n')).toBe(true);
      expect(document.head.querySelector('link[rel="modulepreload"][href="/assets/home-0.js"]')).not.toBeNull();

      render(<RouterProvider router={createMemoryRouter(routes, { initialEntries: ['/'] })} />);
      expect(await screen.findByRole('article', { name: asked.title })).toBeInTheDocument();
      expect(requests.filter(({ path }) => path === '/api/polls/questions/')).toHaveLength(1);
      expect(requests.filter(({ path }) => path === '/api/polls/categories/')).toHaveLength(1);
    },
  );
});
