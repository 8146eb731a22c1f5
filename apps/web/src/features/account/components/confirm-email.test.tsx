import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { ConfirmEmail } from './confirm-email';

describe('ConfirmEmail', () => {
  it('sends the link’s token once, without a session, and says the email was changed', async () => {
    const { requests, on } = stubApi();
    on('POST /api/auth/email/confirm/', { body: { email: 'ada@new.example' } });
    renderScreen(<ConfirmEmail token="from-the-mail" />);
    expect(screen.getByText('Confirming your new email…')).toBeInTheDocument();
    expect(await screen.findByText(/Your email is changed\./)).toHaveTextContent(
      'Your email is changed. Sign in with ada@new.example from now on.',
    );
    const confirmations = requests.filter((request) => request.path === '/api/auth/email/confirm/');
    expect(confirmations).toMatchObject([{ method: 'POST', body: { token: 'from-the-mail' } }]);
    expect(confirmations[0].headers).not.toHaveProperty('Authorization');
    expect(screen.getByRole('link', { name: 'Preferences' })).toHaveAttribute('href', '/settings');
  });

  it('says when the link was used or lapsed, and where to ask for a new one', async () => {
    stubApi().on('POST /api/auth/email/confirm/', {
      status: 400,
      body: { message: 'This link does not work any more: it was used, it lapsed, or it is not one we sent' },
    });
    renderScreen(<ConfirmEmail token="used" />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link does not work any more: it was used, it lapsed, or it is not one we sent. Your email did not change: ask for a new link in Preferences.',
    );
    expect(screen.getByRole('link', { name: 'Preferences' })).toHaveAttribute('href', '/settings');
  });
});
