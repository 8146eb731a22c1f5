import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { ResetPasswordForm } from './reset-password-form';

describe('ResetPasswordForm', () => {
  it('sends the link’s token with the new password, and signs in with the token that comes back', async () => {
    const { requests, on } = stubApi();
    on('POST /api/auth/password-reset/confirm/', { body: { token: 'fresh' } });
    const onSignedIn = vi.fn();
    const { user } = renderScreen(<ResetPasswordForm token="from-the-mail" onSignedIn={onSignedIn} />);
    await user.type(screen.getByLabelText('New password'), 'a brand new horse');
    await user.type(screen.getByLabelText('Confirm password'), 'a brand new horse');
    await user.click(screen.getByRole('button', { name: 'Save and log in' }));
    await vi.waitFor(() => expect(onSignedIn).toHaveBeenCalledWith('fresh'));
    expect(requests).toMatchObject([
      {
        method: 'POST',
        path: '/api/auth/password-reset/confirm/',
        body: { token: 'from-the-mail', password: 'a brand new horse' },
      },
    ]);
  });

  it('checks the password and its confirmation before sending', async () => {
    const { requests } = stubApi();
    const { user } = renderScreen(<ResetPasswordForm token="t" onSignedIn={vi.fn()} />);
    await user.type(screen.getByLabelText('New password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Save and log in' }));
    expect(screen.getByText('Your password needs at least 8 characters!')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), ' and longer');
    await user.type(screen.getByLabelText('Confirm password'), 'something else');
    await user.click(screen.getByRole('button', { name: 'Save and log in' }));
    expect(screen.getByText('Password and confirm not match!')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('says when the link no longer works, with a way to a new one', async () => {
    stubApi().on('POST /api/auth/password-reset/confirm/', {
      status: 400,
      body: { message: 'This link does not work any more: it was used, it lapsed, or it is not one we sent' },
    });
    const onSignedIn = vi.fn();
    const { user } = renderScreen(<ResetPasswordForm token="used" onSignedIn={onSignedIn} />);
    await user.type(screen.getByLabelText('New password'), 'a brand new horse');
    await user.type(screen.getByLabelText('Confirm password'), 'a brand new horse');
    await user.click(screen.getByRole('button', { name: 'Save and log in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This link does not work any more: it was used, it lapsed, or it is not one we sent. Ask for a new link',
    );
    expect(screen.getByRole('link', { name: 'Ask for a new link' })).toHaveAttribute('href', '/forgot-password');
    expect(onSignedIn).not.toHaveBeenCalled();
  });
});
