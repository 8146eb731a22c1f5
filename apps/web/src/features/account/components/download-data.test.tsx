import type { AccountExport } from '@pollscope/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storeToken } from '../../../lib/auth-token';
import { stubApi } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { DownloadData } from './download-data';

/** The file of an account with nothing in it yet. */
const emptyExport: AccountExport = {
  exported_at: '2025-03-05T10:00:00.000Z',
  account: {
    id: 7,
    email: 'ada@example.com',
    first_name: 'Ada',
    birthdate: '1990-04-12',
    gender: 'F',
    country: { id: 250, name: 'France' },
    favorite_category: null,
    favorite_topic: null,
    created_at: '2025-03-01T09:00:00.000Z',
  },
  settings: { email: 'ada@example.com', notification: true, language: 'en', question_languages: null },
  questions: [],
  votes: [],
  likes: [],
  hidden: [],
  following: [],
  followers: [],
  blocked: [],
  notifications: [],
  sessions: [],
  password_reset_links: [],
  mail_waiting: [],
  push_subscriptions: [],
};

describe('DownloadData', () => {
  it('fetches the file with the token and saves it under the name the server gives', async () => {
    storeToken('t0k3n');
    const { requests, on } = stubApi();
    on('GET /api/auth/export/', {
      body: emptyExport,
      headers: { 'Content-Disposition': 'attachment; filename="pollscope-UID007-2025-03-05.json"' },
    });
    const saved: { name: string; href: string }[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, href: this.href });
    });
    const createObjectURL = vi.fn(() => 'blob:pollscope/1');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const { user } = renderScreen(<DownloadData />);
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    await vi.waitFor(() =>
      expect(saved).toEqual([{ name: 'pollscope-UID007-2025-03-05.json', href: 'blob:pollscope/1' }]),
    );
    // Signed in, the app asks for the account's language too (i18n-provider.tsx).
    expect(requests.filter((request) => request.path !== '/api/auth/settings/')).toMatchObject([
      { method: 'GET', path: '/api/auth/export/', headers: { Authorization: 'Token t0k3n' } },
    ]);
    expect(await (createObjectURL.mock.calls[0] as unknown as [Blob])[0].text()).toBe(JSON.stringify(emptyExport));
  });

  it('says why when the download fails', async () => {
    stubApi().on('GET /api/auth/export/', {
      status: 429,
      body: { message: 'Too many requests, try again in 40 minutes' },
    });
    const { user } = renderScreen(<DownloadData />);
    await user.click(screen.getByRole('button', { name: 'Download my data' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests, try again in 40 minutes');
  });
});
