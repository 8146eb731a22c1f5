import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi, type StubReply } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { ForgotPasswordForm } from './forgot-password-form';

const answer =
  'If an account has this address, a link to choose a new password is on its way. It works for 30 minutes.';

describe('ForgotPasswordForm', () => {
  it('sends the address and shows the server’s answer, the same whether or not an account has it', async () => {
    const { requests, on } = stubApi();
    on('POST /api/auth/password-reset/', { body: { message: answer } });
    const { user } = renderScreen(<ForgotPasswordForm />);
    await user.type(screen.getByLabelText('Email'), ' ada@example.com ');
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByText(answer)).toBeInTheDocument();
    expect(requests).toMatchObject([
      { method: 'POST', path: '/api/auth/password-reset/', body: { email: 'ada@example.com' } },
    ]);
    // Without a token: whoever asks is not signed in.
    expect(requests[0].headers).not.toHaveProperty('Authorization');
    expect(screen.getByRole('link', { name: 'Back to log in' })).toHaveAttribute('href', '/login');
    await user.click(screen.getByRole('button', { name: 'Ask again' }));
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
  });

  it('shows the field’s error, or the wait when too many links were asked', async () => {
    const replies: StubReply<'POST /api/auth/password-reset/'>[] = [
      { status: 400, body: { message: 'Enter a valid email', errors: { email: 'Enter a valid email' } } },
      { status: 429, body: { message: 'Too many requests, try again in 12 minutes' } },
    ];
    stubApi().on('POST /api/auth/password-reset/', () => replies.shift());
    const { user } = renderScreen(<ForgotPasswordForm />);
    await user.type(screen.getByLabelText('Email'), 'ada@example');
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a valid email');
    await user.click(screen.getByRole('button', { name: 'Send me a link' }));
    expect(await screen.findByText('Too many requests, try again in 12 minutes')).toBeInTheDocument();
  });
});
