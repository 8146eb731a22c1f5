import type { Account } from '@pollscope/contract';
import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { PersonalInfoForm } from './personal-info-form';

const account: Account = {
  id: 12,
  role: 'member',
  first_name: 'Ada',
  birthdate: '1990-04-12',
  country: 250,
  favorite_category: null,
  favorite_topic: null,
  gender: 'F',
};
const countries = [
  { id: 250, code: 'FR', name: 'France' },
  { id: 826, code: 'GB', name: 'United Kingdom' },
];
const categories = [{ id: 3, name: 'Technology' }];

afterEach(() => {
  vi.useRealTimers();
});

describe('PersonalInfoForm', () => {
  it('requires the name, birth date and country, not the favorites', async () => {
    const { requests } = stubApi();
    const { user } = renderScreen(<PersonalInfoForm initial={account} countries={countries} categories={categories} />);
    await user.clear(screen.getByLabelText('First name'));
    await user.clear(screen.getByLabelText('Birth date'));
    await user.selectOptions(screen.getByLabelText('Living in'), '');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getAllByText('Please fill in this field!')).toHaveLength(3);
    expect(requests).toHaveLength(0);
  });

  it('saves and says "Personal info updated" for 2 seconds', async () => {
    const { requests, on } = stubApi();
    on('POST /api/auth/account/', { body: { ...account, favorite_category: 3, favorite_topic: 'Space' } });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { user } = renderScreen(<PersonalInfoForm initial={account} countries={countries} categories={categories} />);
    await user.selectOptions(screen.getByLabelText('Favorite category (optional)'), 'Technology');
    await user.type(screen.getByLabelText('Favorite topic (optional)'), 'Space');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Personal info updated')).toBeInTheDocument();
    expect(requests[0].body).toEqual({
      firstName: 'Ada',
      birthDate: '1990-04-12',
      livingIn: 250,
      favoriteCategory: 3,
      favoriteTopic: 'Space',
    });
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(screen.queryByText('Personal info updated')).not.toBeInTheDocument();
  });

  it('shows the server message and the field it is about', async () => {
    stubApi().on('POST /api/auth/account/', {
      status: 400,
      body: { message: 'Invalid input', errors: { birthDate: 'You must be between 13 and 120 years old' } },
    });
    const { user } = renderScreen(<PersonalInfoForm initial={account} countries={countries} categories={categories} />);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('You must be between 13 and 120 years old')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Invalid input');
  });
});
