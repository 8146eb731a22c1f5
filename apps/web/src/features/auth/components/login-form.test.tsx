import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { storeToken, getToken } from '../../../lib/auth-token';
import { stubApi } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { LoginForm } from './login-form';

describe('LoginForm', () => {
  it('posts the email and password and hands over the token', async () => {
    const { requests, on } = stubApi();
    on('POST /api/login/', { body: { token: 'abc' } });
    const onSignedIn = vi.fn();
    const { user } = renderScreen(<LoginForm onSignedIn={onSignedIn} />);
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('abc'));
    expect(requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/login/',
      body: { email: 'ada@example.com', password: 'secret-pass' },
    });
  });

  it('says the pair is wrong, and stays on the form', async () => {
    stubApi().on('POST /api/login/', { status: 400, body: { message: 'Wrong username or password!' } });
    storeToken('stale');
    const { user } = renderScreen(<LoginForm onSignedIn={vi.fn()} />, { at: '/login' });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'nope');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong username or password!');
    expect(screen.getByTestId('location')).toHaveTextContent('/login');
    // A failed sign-in is not an expired session: nothing else is touched.
    expect(getToken()).toBe('stale');
  });

  it('tells a suspended person why and until when, as the server says it', async () => {
    const suspended = 'Your account is suspended until 12 June 2026: Repeated spam after a warning.';
    stubApi().on('POST /api/login/', { status: 403, body: { message: suspended } });
    const onSignedIn = vi.fn();
    const { user } = renderScreen(<LoginForm onSignedIn={onSignedIn} />);
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(suspended);
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it('leads to the form for a forgotten password', () => {
    stubApi();
    renderScreen(<LoginForm onSignedIn={vi.fn()} />);
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
  });
});

describe('LoginForm in another language', () => {
  it('speaks German, its links in the sentence, and says a wrong pair in German', async () => {
    stubApi().on('POST /api/login/', { status: 400, body: { message: 'Wrong username or password!' } });
    const { user } = renderScreen(<LoginForm destination="/q/7" onSignedIn={vi.fn()} />, { locale: 'de' });
    await user.type(await screen.findByLabelText('E-Mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Passwort'), 'nope');
    expect(screen.getByRole('link', { name: 'Passwort vergessen?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('link', { name: 'Konto erstellen' }).getAttribute('href')).toMatch(/^\/register\?/);
    expect(screen.getByText(/Neu bei POLLSCOPE\?/)).toHaveTextContent(
      'Neu bei POLLSCOPE? Konto erstellen oder das kurze Quiz machen',
    );
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Falscher Benutzername oder falsches Passwort!');
  });

  it('says in German that the server cannot be reached, not that the pair is wrong', async () => {
    stubApi().fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const { user } = renderScreen(<LoginForm onSignedIn={vi.fn()} />, { locale: 'de' });
    await user.type(await screen.findByLabelText('E-Mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Passwort'), 'secret-pass');
    await user.click(screen.getByRole('button', { name: 'Anmelden' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Der Server ist nicht erreichbar. Prüfe deine Verbindung und versuche es noch einmal.',
    );
  });
});
