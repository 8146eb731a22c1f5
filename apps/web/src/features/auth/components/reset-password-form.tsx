import { PASSWORD_MIN_LENGTH } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { resetPassword } from '../api/password-reset';
import { registerMessages } from './register-form';

interface Errors {
  password?: string;
  confirm?: string;
}

function validate(password: string, confirm: string): Errors {
  if (password.length < PASSWORD_MIN_LENGTH) return { password: registerMessages.passwordLength };
  if (confirm === '') return { confirm: registerMessages.required };
  if (password !== confirm) return { confirm: registerMessages.mismatch };
  return {};
}

/** Chooses a new password with the token of a mailed link; the answer's token signs its owner in. */
export function ResetPasswordForm({ token, onSignedIn }: { token: string; onSignedIn: (token: string) => void }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(password, confirm);
    setErrors(found);
    setFailure(null);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const result = await resetPassword({ token, password });
    setPending(false);
    if (!(result instanceof ApiError)) onSignedIn(result.token);
    else if (result.errors.password) setErrors({ password: result.errors.password });
    else setFailure(result.message);
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label="Choose a new password">
      <Field label="New password" error={errors.password} hint={`At least ${PASSWORD_MIN_LENGTH} characters`}>
        <input
          className="input"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <Field label="Confirm password" error={errors.confirm}>
        <input
          className="input"
          type="password"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(event) => setConfirm(event.target.value)}
        />
      </Field>
      {failure && (
        <Banner tone="error">
          <span>
            {failure}. <Link to={paths.forgotPassword.getHref()}>Ask for a new link</Link>
          </span>
        </Banner>
      )}
      <Button type="submit" variant="primary" block pending={pending}>
        Save and log in
      </Button>
      <p className="muted auth-note">Every other device signed in to your account is signed out.</p>
    </form>
  );
}
