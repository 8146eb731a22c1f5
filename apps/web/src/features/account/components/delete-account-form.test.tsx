import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { getToken, storeToken } from '../../../lib/auth-token';
import { stubApi } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { DeleteAccountForm } from './delete-account-form';

describe('DeleteAccountForm', () => {
  it('asks for the password and the words of confirmation before sending anything', async () => {
    const { requests } = stubApi();
    const { user } = renderScreen(<DeleteAccountForm onDeleted={vi.fn()} />);
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(screen.getByText('Enter your password')).toBeInTheDocument();
    expect(screen.getByText('Type “delete my account” to confirm')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Type “delete my account”'), 'delete it');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(screen.getByText('Type “delete my account” to confirm')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('deletes with the password, forgets the token and hands over', async () => {
    storeToken('t0k3n');
    const { requests, on } = stubApi();
    on('POST /api/auth/delete/', { status: 204 });
    const onDeleted = vi.fn();
    const { user } = renderScreen(<DeleteAccountForm onDeleted={onDeleted} />);
    await user.type(screen.getByLabelText('Password'), 'correct horse');
    await user.type(screen.getByLabelText('Type “delete my account”'), 'Delete my account');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    await vi.waitFor(() => expect(onDeleted).toHaveBeenCalled());
    // Signed in, the app asks for the account's language too (i18n-provider.tsx).
    expect(requests.filter((request) => request.path !== '/api/auth/settings/')).toMatchObject([
      {
        method: 'POST',
        path: '/api/auth/delete/',
        body: { password: 'correct horse' },
        headers: { Authorization: 'Token t0k3n' },
      },
    ]);
    expect(getToken()).toBeNull();
  });

  it('says a wrong password beside it, and stays signed in', async () => {
    storeToken('t0k3n');
    stubApi().on('POST /api/auth/delete/', {
      status: 400,
      body: { message: 'Wrong password', errors: { password: 'Wrong password' } },
    });
    const onDeleted = vi.fn();
    const { user } = renderScreen(<DeleteAccountForm onDeleted={onDeleted} />);
    await user.type(screen.getByLabelText('Password'), 'wrong horse');
    await user.type(screen.getByLabelText('Type “delete my account”'), 'delete my account');
    await user.click(screen.getByRole('button', { name: 'Delete my account' }));
    expect(await screen.findByText('Wrong password')).toBeInTheDocument();
    expect(screen.getByLabelText('Password')).toHaveAttribute('aria-invalid', 'true');
    expect(onDeleted).not.toHaveBeenCalled();
    expect(getToken()).toBe('t0k3n');
  });
});
