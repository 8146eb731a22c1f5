import { act, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { SettingsForm } from './settings-form';

const initial = {
  email: 'ada@example.com',
  notification: true,
  pending_email: null,
  language: 'en' as const,
  question_languages: null,
};

afterEach(() => {
  vi.useRealTimers();
});

describe('SettingsForm', () => {
  it('saves without a password, and the banner clears after 2 seconds', async () => {
    const { requests, on } = stubApi();
    on('POST /api/auth/settings/', ({ body }) => ({
      body: { ...initial, email: body?.email ?? '', notification: false },
    }));
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
    const { requests } = stubApi();
    const { user } = renderScreen(<SettingsForm initial={initial} />);
    await user.type(screen.getByLabelText('New password'), 'a-new-password');
    expect(screen.getByLabelText('Confirm password')).toBeRequired();
    await user.type(screen.getByLabelText('Current password'), 'the-old-password');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByLabelText('Confirm password')).toHaveAccessibleDescription('Please fill in this field!');
    await user.type(screen.getByLabelText('Confirm password'), 'another-password');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Password and confirm not match!')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('sends a matching new password with the current one', async () => {
    const { requests, on } = stubApi();
    on('POST /api/auth/settings/', { body: initial });
    const { user } = renderScreen(<SettingsForm initial={initial} />);
    await user.type(screen.getByLabelText('New password'), 'a-new-password');
    await user.type(screen.getByLabelText('Confirm password'), 'a-new-password');
    await user.type(screen.getByLabelText('Current password'), 'the-old-password');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Settings updated');
    expect(requests[0].body).toEqual({
      email: 'ada@example.com',
      notification: true,
      password: 'a-new-password',
      current_password: 'the-old-password',
    });
    expect(screen.getByLabelText('New password')).toHaveValue('');
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
  });

  it('asks for the current password only once the email or the password changes', async () => {
    const { requests } = stubApi();
    const { user } = renderScreen(<SettingsForm initial={initial} />);
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('New password'), 'x');
    expect(screen.getByLabelText('Current password')).toBeRequired();
    await user.clear(screen.getByLabelText('New password'));
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    // The same email in other case is no change.
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ADA@example.com');
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@new.example');
    expect(screen.getByLabelText('Current password')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(
      'Needed to change your email or password Please fill in this field!',
    );
    expect(requests).toHaveLength(0);
  });

  it('shows the server’s field errors beside their fields', async () => {
    stubApi().on('POST /api/auth/settings/', {
      status: 400,
      body: { message: 'Wrong password', errors: { current_password: 'Wrong password' } },
    });
    const { user } = renderScreen(<SettingsForm initial={initial} />);
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@new.example');
    await user.type(screen.getByLabelText('Current password'), 'a-wrong-guess');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Wrong password')).toBeInTheDocument();
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Settings updated')).not.toBeInTheDocument();
  });

  it('after a new email, says a confirmation was mailed to it and keeps the old one until then', async () => {
    const { requests, on } = stubApi();
    on('POST /api/auth/settings/', {
      body: { ...initial, pending_email: 'ada@new.example' },
    });
    const { user } = renderScreen(<SettingsForm initial={initial} />);
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'ada@new.example');
    await user.type(screen.getByLabelText('Current password'), 'the-password');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/We mailed a confirmation link to/)).toHaveTextContent(
      'We mailed a confirmation link to ada@new.example. Your email stays ada@example.com until you open it (it works for 30 minutes).',
    );
    expect(requests[0].body).toEqual({
      email: 'ada@new.example',
      notification: true,
      current_password: 'the-password',
    });
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
  });

  it('shows an email still waiting for its confirmation when the screen opens', () => {
    renderScreen(<SettingsForm initial={{ ...initial, pending_email: 'ada@new.example' }} />);
    expect(screen.getByText(/We mailed a confirmation link to/)).toHaveTextContent('ada@new.example');
  });

  it('says "Something wrong try again!" when saving fails, for 2 seconds', async () => {
    stubApi().on('POST /api/auth/settings/', { status: 409, body: { message: 'Email taken' } });
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
    expect(screen.getByLabelText('Email')).toHaveAccessibleDescription('Please fill in this field!');
    expect(screen.getByLabelText('Email')).toHaveAttribute('type', 'email');
  });

  describe('the language', () => {
    it('offers each language named in itself, switches the app at once and keeps it on the account', async () => {
      const { requests, on } = stubApi();
      on('POST /api/auth/settings/', ({ body }) => ({ body: { ...initial, language: body?.language ?? 'en' } }));
      const { user } = renderScreen(<SettingsForm initial={initial} />);
      const select = screen.getByLabelText('Language');
      expect(select).toHaveValue('en');
      expect(select).toHaveAccessibleDescription(
        'For the screens, your mail and your notifications. It changes at once.',
      );
      expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
        'English',
        'Deutsch',
        'Français',
        'Español',
        'Italiano',
        'Português (Brasil)',
        '日本語',
        'العربية',
      ]);
      await user.selectOptions(select, 'Deutsch');
      // The whole form speaks German without a reload, and the choice is saved without the Save button.
      expect(await screen.findByRole('button', { name: 'Speichern' })).toBeInTheDocument();
      expect(screen.getByLabelText('Sprache')).toHaveValue('de');
      expect(requests.map((request) => request.body)).toEqual([
        { email: 'ada@example.com', notification: true, language: 'de' },
      ]);
      // Saved already, it is not sent again with the rest.
      await user.click(screen.getByRole('button', { name: 'Speichern' }));
      expect(await screen.findByText('Einstellungen gespeichert')).toBeInTheDocument();
      expect(requests[1].body).toEqual({ email: 'ada@example.com', notification: true });
    });

    it('sends a language the account could not keep at once with the next save', async () => {
      const { requests, on } = stubApi();
      on('POST /api/auth/settings/', ({ body }) =>
        body?.language && requests.length === 1
          ? { status: 503, body: { message: 'Unavailable' } }
          : { body: { ...initial, language: body?.language ?? 'en' } },
      );
      const { user } = renderScreen(<SettingsForm initial={initial} />);
      await user.selectOptions(screen.getByLabelText('Language'), '日本語');
      await user.click(await screen.findByRole('button', { name: '保存' }));
      await screen.findByText('設定を更新しました');
      expect(requests.map((request) => request.body)).toEqual([
        { email: 'ada@example.com', notification: true, language: 'ja' },
        { email: 'ada@example.com', notification: true, language: 'ja' },
      ]);
    });
  });

  describe('the languages of questions', () => {
    it('shows all languages by default, and sends the ones chosen', async () => {
      const { requests, on } = stubApi();
      on('POST /api/auth/settings/', ({ body }) => ({
        body: { ...initial, question_languages: body?.question_languages ?? null },
      }));
      const { user } = renderScreen(<SettingsForm initial={initial} />);
      expect(screen.getByRole('group', { name: 'Languages of questions' })).toHaveAccessibleDescription(
        'The questions your feed, lists, search and trending show.',
      );
      expect(screen.getByRole('radio', { name: 'All languages' })).toBeChecked();
      expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();

      await user.click(screen.getByRole('radio', { name: 'Only these languages:' }));
      const chosen = screen.getByRole('group', { name: 'Only these languages:' });
      // The interface's eight languages, named in the reader's; the reader's own is ticked to begin with.
      expect(
        within(chosen)
          .getAllByRole('checkbox')
          .map((box) => box.parentElement?.textContent),
      ).toEqual(['English', 'German', 'French', 'Spanish', 'Italian', 'Portuguese', 'Japanese', 'Arabic']);
      expect(within(chosen).getByRole('checkbox', { name: 'English' })).toBeChecked();
      await user.click(within(chosen).getByRole('checkbox', { name: 'Japanese' }));
      await user.click(within(chosen).getByRole('checkbox', { name: 'German' }));
      await user.click(within(chosen).getByRole('checkbox', { name: 'English' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findByText('Settings updated');
      expect(requests[0].body).toEqual({
        email: 'ada@example.com',
        notification: true,
        question_languages: ['de', 'ja'],
      });
      expect(screen.getByRole('radio', { name: 'Only these languages:' })).toBeChecked();
      expect(screen.getByRole('checkbox', { name: 'German' })).toBeChecked();
      expect(screen.getByRole('checkbox', { name: 'English' })).not.toBeChecked();
    });

    it('shows a list chosen before, languages beyond the interface’s too, and goes back to all with null', async () => {
      const { requests, on } = stubApi();
      on('POST /api/auth/settings/', { body: initial });
      const { user } = renderScreen(<SettingsForm initial={{ ...initial, question_languages: ['ko', 'de'] }} />);
      expect(screen.getByRole('radio', { name: 'Only these languages:' })).toBeChecked();
      expect(screen.getByRole('checkbox', { name: 'Korean' })).toBeChecked();
      expect(screen.getByRole('checkbox', { name: 'German' })).toBeChecked();
      expect(screen.getByRole('checkbox', { name: 'French' })).not.toBeChecked();
      await user.click(screen.getByRole('radio', { name: 'All languages' }));
      expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Save' }));
      await screen.findByText('Settings updated');
      expect(requests[0].body).toEqual({ email: 'ada@example.com', notification: true, question_languages: null });
    });

    it('asks for at least one language before sending', async () => {
      const { requests } = stubApi();
      const { user } = renderScreen(<SettingsForm initial={initial} />);
      await user.click(screen.getByRole('radio', { name: 'Only these languages:' }));
      await user.click(screen.getByRole('checkbox', { name: 'English' }));
      await user.click(screen.getByRole('button', { name: 'Save' }));
      expect(screen.getByRole('group', { name: 'Languages of questions' })).toHaveAccessibleDescription(
        'The questions your feed, lists, search and trending show. Please choose at least one language!',
      );
      expect(requests).toHaveLength(0);
    });

    it('names the languages in the reader’s language', async () => {
      const { user } = renderScreen(<SettingsForm initial={initial} />, { locale: 'fr' });
      await user.click(await screen.findByRole('radio', { name: /^Seulement ces langues/ }));
      expect(screen.getByRole('checkbox', { name: 'Français' })).toBeChecked();
      expect(screen.getByRole('checkbox', { name: 'Japonais' })).not.toBeChecked();
    });
  });
});
