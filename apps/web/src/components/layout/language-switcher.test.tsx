import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LANGUAGE_COOKIE } from '../../i18n/locales';
import { clearToken, storeToken } from '../../lib/auth-token';
import { stubApi } from '../../testing/api-stub';
import { renderScreen } from '../../testing/render';
import { AppLayout } from './app-layout';

describe('the language switcher', () => {
  afterEach(() => {
    document.cookie = `${LANGUAGE_COOKIE}=; Max-Age=0; Path=/`;
    document.documentElement.lang = 'en';
    document.documentElement.dir = 'ltr';
  });

  it('offers each language in its own words, and starts in English', () => {
    stubApi();
    renderScreen(<AppLayout />);
    const select = screen.getByRole('combobox', { name: 'Language' });
    expect(select).toHaveValue('en');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['English', 'Deutsch', 'Français', 'Español', 'Italiano', 'Português (Brasil)', '日本語', 'العربية']);
    expect(screen.getByRole('link', { name: 'Skip to content' })).toBeInTheDocument();
    expect(document.documentElement).toHaveAttribute('lang', 'en');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
  });

  it('keeps a signed-in person’s choice on their account, which their mail and other devices follow', async () => {
    storeToken('t0k3n');
    try {
      const { on, requests } = stubApi();
      const settings = { email: 'ada@example.com', notification: false, pending_email: null, language: 'en' as const };
      on('GET /api/auth/settings/', { body: { ...settings, question_languages: null } });
      on('POST /api/auth/settings/', ({ body }) => ({ body: { ...settings, ...body, question_languages: null } }));
      const { user } = renderScreen(<AppLayout />);
      await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'ja');
      await vi.waitFor(() =>
        expect(requests.filter((request) => request.method === 'POST').map((request) => request.body)).toEqual([
          { email: 'ada@example.com', notification: false, language: 'ja' },
        ]),
      );
    } finally {
      clearToken();
    }
  });

  it('switches the shell at once, sets <html lang dir> and keeps the choice in the cookie', async () => {
    stubApi();
    const { user } = renderScreen(<AppLayout />);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Language' }), 'de');

    const site = await screen.findByRole('navigation', { name: 'Website' });
    expect(within(site).getByRole('link', { name: 'Kontakt' })).toHaveAttribute('href', '/contact');
    expect(within(site).getByRole('link', { name: 'Datenschutz' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zum Inhalt springen' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'POLLSCOPE-Startseite' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Sprache' })).toHaveValue('de');
    expect(document.documentElement).toHaveAttribute('lang', 'de');
    expect(document.documentElement).toHaveAttribute('dir', 'ltr');
    expect(document.cookie).toContain(`${LANGUAGE_COOKIE}=de`);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sprache' }), 'ar');
    expect(await screen.findByRole('link', { name: 'الانتقال إلى المحتوى' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'اللغة' })).toHaveValue('ar');
    expect(document.documentElement).toHaveAttribute('lang', 'ar');
    expect(document.documentElement).toHaveAttribute('dir', 'rtl');
    expect(document.cookie).toContain(`${LANGUAGE_COOKIE}=ar`);
  });

  it('starts in the locale it is given, its catalog loaded first', async () => {
    stubApi();
    renderScreen(<AppLayout />, { locale: 'ja' });
    expect(await screen.findByRole('combobox', { name: '言語' })).toHaveValue('ja');
    expect(screen.getByRole('link', { name: '本文へ移動' })).toBeInTheDocument();
    await vi.waitFor(() => expect(document.documentElement).toHaveAttribute('lang', 'ja'));
  });
});
