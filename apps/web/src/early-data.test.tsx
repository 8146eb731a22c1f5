import { screen } from '@testing-library/react';
import { APP_FILES_TEMPLATE_ID, FIRST_SCREEN_DATA_ID } from '@pollscope/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openAppAt } from './app/open-app';
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

      await openAppAt('/');
      expect(await screen.findByRole('article', { name: asked.title })).toBeInTheDocument();
      expect(requests.filter(({ path }) => path === '/api/polls/questions/')).toHaveLength(1);
      expect(requests.filter(({ path }) => path === '/api/polls/categories/')).toHaveLength(1);
    },
  );

  describe('in a page with the feed the server rendered', () => {
    afterEach(() => {
      vi.useRealTimers();
      document.getElementById(FIRST_SCREEN_DATA_ID)?.remove();
      document.getElementById(APP_FILES_TEMPLATE_ID)?.remove();
      document.head.querySelectorAll('script[src], link').forEach((element) => element.remove());
    });

    it('asks for none of its data, and loads the app only once the feed is on screen', () => {
      vi.useFakeTimers({ toFake: ['requestAnimationFrame', 'setTimeout'] });
      storeToken('t0k3n');
      document.cookie = 'pollscope_session=; Max-Age=0; Path=/';
      const data = Object.assign(document.createElement('script'), {
        type: 'application/json',
        id: FIRST_SCREEN_DATA_ID,
        textContent: JSON.stringify({
          '/api/polls/questions/': { qotd: null, questions: [asked], next: null },
          '/api/polls/categories/': [],
          '/api/auth/account/': { id: 7, role: 'member' },
        }),
      });
      document.head.append(data);
      const appFiles = Object.assign(document.createElement('template'), { id: APP_FILES_TEMPLATE_ID });
      appFiles.innerHTML =
        '<script type="module" crossorigin src="/assets/index-0.js"></script><link rel="modulepreload" crossorigin href="/assets/root-0.js">';
      document.body.append(appFiles);
      const { requests } = stubFirstScreen();

      startFirstScreen(feedScreen);
      expect(requests).toEqual([]);
      expect(document.head.querySelector('script[src="/assets/index-0.js"]')).toBeNull();

      // The frame that shows the feed, then the task after it.
      vi.advanceTimersToNextFrame();
      vi.runOnlyPendingTimers();
      // Only what the server could not put in the page: the live unread count.
      expect(requests.map(({ path }) => path)).toEqual(['/api/notifications/live/']);
      const entry = document.head.querySelector<HTMLScriptElement>('script[src="/assets/index-0.js"]');
      expect(entry?.type).toBe('module');
      expect(document.head.querySelector('link[rel="modulepreload"][href="/assets/root-0.js"]')).not.toBeNull();
      expect(document.head.querySelector('link[rel="modulepreload"][href="/assets/home-0.js"]')).not.toBeNull();
      // The session cookie, for the next page the server renders.
      expect(document.cookie).toContain('pollscope_session=t0k3n');
    });
  });
});
