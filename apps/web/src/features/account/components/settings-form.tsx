import { PASSWORD_MIN_LENGTH, type Settings } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { MessageSlot } from '../../../components/ui/banner';
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
}

function validate(email: string, password: string, confirm: string): Errors {
  const errors: Errors = {};
  if (email.trim() === '') errors.email = accountMessages.required;
  else if (!EMAIL_PATTERN.test(email.trim())) errors.email = accountMessages.email;
  if (password !== '') {
    if (password.length < PASSWORD_MIN_LENGTH) errors.password = `Your password needs at least ${PASSWORD_MIN_LENGTH} characters!`;
    else if (confirm === '') errors.confirm = accountMessages.required;
    else if (password !== confirm) errors.confirm = accountMessages.mismatch;
  }
  return errors;
}

/** Email, notifications and an optional new password. */
export function SettingsForm({ initial }: { initial: Settings }) {
  const [email, setEmail] = useState(initial.email);
  const [notification, setNotification] = useState(initial.notification);
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [pending, setPending] = useState(false);
  const [message, setMessage] = useTimedMessage();

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(email, password, confirm);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const result = await updateSettings({ email: email.trim(), notification, ...(password && { password }) });
    setPending(false);
    if (result instanceof ApiError) {
      setMessage({ text: accountMessages.settingsFailed, tone: 'error' });
      return;
    }
    setEmail(result.email);
    setNotification(result.notification);
    setPassword('');
    setConfirm('');
    setMessage({ text: accountMessages.settingsSaved, tone: 'success' });
  }

  return (
    <form className="form card" onSubmit={submit} noValidate aria-label="Preferences">
      <Field label="Email" error={errors.email}>
        <input className="input" type="email" autoComplete="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
      </Field>
      <fieldset className="fieldset">
        <legend className="fieldset__legend">Email notifications</legend>
        <div className="choice-pills">
          {[true, false].map((value) => (
            <label key={String(value)} className="choice-pill">
              <input type="radio" name="notification" checked={notification === value} onChange={() => setNotification(value)} />
              {value ? 'Yes' : 'No'}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="form-grid">
        <Field label="New password" error={errors.password} hint="Leave empty to keep your password">
          <input className="input" type="password" autoComplete="new-password" value={password} onChange={(event) => setPassword(event.target.value)} />
        </Field>
        <Field label="Confirm password" error={errors.confirm}>
          <input className="input" type="password" autoComplete="new-password" required={password !== ''} value={confirm} onChange={(event) => setConfirm(event.target.value)} />
        </Field>
      </div>
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
