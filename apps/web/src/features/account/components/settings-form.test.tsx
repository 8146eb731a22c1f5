import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { SettingsForm } from './settings-form';

const initial = { email: 'ada@example.com', notification: true };

afterEach(() => {
  vi.useRealTimers();
});

describe('SettingsForm', () => {
  it('saves without a password, and the banner clears after 2 seconds', async () => {
    const { requests } = stubApi(({ body }) => ({ body: { email: (body as { email: string }).email, notification: false } }));
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user } = renderScreen(<SettingsForm initial={initial} />);
    await user.click(screen.getByLabelText('No'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Settings updated')).toBeInTheDocument();
    expect(requests[0].body).toEqual({ email: 'ada@example.com', notification: false });
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(screen.queryByText('Settings updated')).not.toBeInTheDocument();
  });

  it('requires the confirmation once a password is typed, and that it matches', async () => {
    const { requests } = stubApi(() => undefined);
    const { user } = renderScreen(<SettingsForm initial={initial} />);
    await user.type(screen.getByLabelText('New password'), 'a-new-password');
    expect(screen.getByLabelText('Confirm password')).toBeRequired();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Please fill in this field!')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Confirm password'), 'another-password');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Password and confirm not match!')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('sends a matching new password', async () => {
    const { requests } = stubApi(() => ({ body: initial }));
    const { user } = renderScreen(<SettingsForm initial={initial} />);
    await user.type(screen.getByLabelText('New password'), 'a-new-password');
    await user.type(screen.getByLabelText('Confirm password'), 'a-new-password');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Settings updated');
    expect(requests[0].body).toEqual({ ...initial, password: 'a-new-password' });
    expect(screen.getByLabelText('New password')).toHaveValue('');
  });

  it('says "Something wrong try again!" when saving fails, for 2 seconds', async () => {
    stubApi(() => ({ status: 409, body: { message: 'Email taken' } }));
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user } = renderScreen(<SettingsForm initial={initial} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Something wrong try again!')).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(screen.queryByText('Something wrong try again!')).not.toBeInTheDocument();
  });

  it('checks the email before sending', async () => {
    const { user } = renderScreen(<SettingsForm initial={initial} />);
    await user.clear(screen.getByLabelText('Email'));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Please fill in this field!')).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
  });
});
