import { EMAIL_CONFIRM_MINUTES, PASSWORD_MIN_LENGTH, type Settings } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { Banner, MessageSlot } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { useTimedMessage } from '../../../hooks/use-timed-message';
import { ApiError } from '../../../lib/api-client';
import { updateSettings } from '../api/update-settings';
import { accountMessages } from '../form-messages';

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

interface Errors {
  email?: string;
  password?: string;
  confirm?: string;
  current_password?: string;
}

/** A new email or password needs the current password: a session alone must not take the account over. */
const changesSignIn = (saved: Settings, email: string, password: string) =>
  email.trim().toLowerCase() !== saved.email || password !== '';

function validate(saved: Settings, email: string, password: string, confirm: string, currentPassword: string): Errors {
  const errors: Errors = {};
  if (email.trim() === '') errors.email = accountMessages.required;
  else if (!EMAIL_PATTERN.test(email.trim())) errors.email = accountMessages.email;
  if (password !== '') {
    if (password.length < PASSWORD_MIN_LENGTH)
      errors.password = `Your password needs at least ${PASSWORD_MIN_LENGTH} characters!`;
    else if (confirm === '') errors.confirm = accountMessages.required;
    else if (password !== confirm) errors.confirm = accountMessages.mismatch;
  }
  if (changesSignIn(saved, email, password) && currentPassword === '')
    errors.current_password = accountMessages.required;
  return errors;
}

/** The server's errors of the fields this form has; null when it named none of them. */
function fieldErrors(error: ApiError): Errors | null {
  const { email, password, current_password } = error.errors;
  const found: Errors = {
    ...(email && { email }),
    ...(password && { password }),
    ...(current_password && { current_password }),
  };
  return Object.keys(found).length > 0 ? found : null;
}

/** Email, notifications and an optional new password; a new email waits for the link mailed to it. */
export function SettingsForm({ initial }: { initial: Settings }) {
  const [saved, setSaved] = useState(initial);
  const [email, setEmail] = useState(initial.email);
  const [notification, setNotification] = useState(initial.notification);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useTimedMessage();
  const needsCurrentPassword = changesSignIn(saved, email, password);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(saved, email, password, confirm, currentPassword);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const result = await updateSettings({
      email: email.trim(),
      notification,
      ...(password && { password }),
      ...(needsCurrentPassword && { current_password: currentPassword }),
    });
    setPending(false);
    if (result instanceof ApiError) {
      const named = fieldErrors(result);
      if (named) setErrors(named);
      else setMessage({ text: accountMessages.settingsFailed, tone: 'error' });
      return;
    }
    setSaved(result);
    setEmail(result.email);
    setNotification(result.notification);
    setPassword('');
    setConfirm('');
    setCurrentPassword('');
    setMessage({ text: accountMessages.settingsSaved, tone: 'success' });
  }

  return (
    <form className="form card" onSubmit={submit} noValidate aria-label="Preferences">
      <Field label="Email" error={errors.email}>
        <input
          className="input"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      {saved.pending_email && (
        <Banner tone="info">
          <span>
            We mailed a confirmation link to <strong>{saved.pending_email}</strong>. Your email stays {saved.email}{' '}
            until you open it (it works for {EMAIL_CONFIRM_MINUTES} minutes).
          </span>
        </Banner>
      )}
      <fieldset className="fieldset">
        <legend className="fieldset__legend">Email notifications</legend>
        <div className="choice-pills">
          {[true, false].map((value) => (
            <label key={String(value)} className="choice-pill">
              <input
                type="radio"
                name="notification"
                checked={notification === value}
                onChange={() => setNotification(value)}
              />
              {value ? 'Yes' : 'No'}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="form-grid">
        <Field label="New password" error={errors.password} hint="Leave empty to keep your password">
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </Field>
        <Field label="Confirm password" error={errors.confirm}>
          <input
            className="input"
            type="password"
            autoComplete="new-password"
            required={password !== ''}
            value={confirm}
            onChange={(event) => setConfirm(event.target.value)}
          />
        </Field>
      </div>
      {needsCurrentPassword && (
        <Field label="Current password" error={errors.current_password} hint={accountMessages.currentPasswordHint}>
          <input
            className="input"
            type="password"
            autoComplete="current-password"
            required
            value={currentPassword}
            onChange={(event) => setCurrentPassword(event.target.value)}
          />
        </Field>
      )}
      <MessageSlot message={message?.tone === 'error' ? message.text : null} tone="error" />
      <MessageSlot message={message?.tone === 'success' ? message.text : null} tone="success" />
      <div className="form-actions">
        <Button type="submit" variant="primary" pending={pending}>
          Save
        </Button>
      </div>
    </form>
  );
}
