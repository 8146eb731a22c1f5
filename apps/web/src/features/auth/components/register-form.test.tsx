import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import type { QuizAnswer } from '../quiz-answers';
import { RegisterForm } from './register-form';

const countries = [
  { id: 250, code: 'FR', name: 'France' },
  { id: 826, code: 'GB', name: 'United Kingdom' },
];

function renderForm({ quiz = [] as QuizAnswer[], onRegistered = vi.fn() } = {}) {
  return renderScreen(<RegisterForm countries={countries} quiz={quiz} onRegistered={onRegistered} />);
}

async function fillIn(
  user: ReturnType<typeof renderForm>['user'],
  { password = 'correct horse', confirm = 'correct horse' } = {},
) {
  await user.type(screen.getByLabelText('First name'), 'Grace');
  await user.type(screen.getByLabelText('Birth date'), '1990-04-12');
  await user.click(screen.getByLabelText('Female'));
  await user.selectOptions(screen.getByLabelText('Living in'), 'France');
  await user.type(screen.getByLabelText('Email'), 'grace@example.com');
  await user.type(screen.getByLabelText('Password'), password);
  await user.type(screen.getByLabelText('Confirm password'), confirm);
}

describe('RegisterForm', () => {
  it('requires every field', async () => {
    const { requests } = stubApi();
    const { user } = renderForm();
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getAllByText('Please fill in this field!')).toHaveLength(7);
    expect(requests).toHaveLength(0);
  });

  it('uses an email field and offers the two gender codes', () => {
    renderForm();
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
    expect(screen.getByLabelText('Female')).toHaveAttribute('value', 'F');
    expect(screen.getByLabelText('Male')).toHaveAttribute('value', 'M');
  });

  it('says when the password and its confirmation differ', async () => {
    const { user } = renderForm();
    await fillIn(user, { confirm: 'correct horsf' });
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(screen.getByText('Password and confirm not match!')).toBeInTheDocument();
  });

  it('signs up with the quiz answers and hands over the token', async () => {
    const { requests, on } = stubApi();
    on('POST /api/auth/register/', { status: 201, body: { token: 'new-token' } });
    const onRegistered = vi.fn();
    const { user } = renderForm({ quiz: [{ question: 1, choice: 2 }], onRegistered });
    expect(screen.getByText(/Your 1 quiz answers will be saved/)).toBeInTheDocument();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    await vi.waitFor(() => expect(onRegistered).toHaveBeenCalledWith('new-token'));
    expect(requests[0].body).toEqual({
      firstName: 'Grace',
      birthDate: '1990-04-12',
      gender: 'F',
      livingIn: 250,
      email: 'grace@example.com',
      password: 'correct horse',
      quiz: [{ question: 1, choice: 2 }],
    });
    expect(requests[0].headers.Authorization).toBeUndefined();
  });

  it('shows why the server refused', async () => {
    stubApi().on('POST /api/auth/register/', { status: 409, body: { message: 'This email is already registered' } });
    const { user } = renderForm();
    await fillIn(user);
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('This email is already registered');
  });
});
