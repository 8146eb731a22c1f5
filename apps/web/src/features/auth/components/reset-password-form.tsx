import { PASSWORD_MIN_LENGTH } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { say, type FormMessage } from '../../../lib/form-message';
import { resetPassword } from '../api/password-reset';
import { authMessages } from '../form-messages';

interface Errors {
  password?: FormMessage;
  confirm?: FormMessage;
}

function validate(password: string, confirm: string): Errors {
  if (password.length < PASSWORD_MIN_LENGTH) return { password: authMessages.passwordLength };
  if (confirm === '') return { confirm: authMessages.required };
  if (password !== confirm) return { confirm: authMessages.mismatch };
  return {};
}

/** Chooses a new password with the token of a mailed link; the answer's token signs its owner in. */
export function ResetPasswordForm({ token, onSignedIn }: { token: string; onSignedIn: (token: string) => void }) {
  const intl = useIntl();
  const errorText = useErrorText();
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
    else if (result.errors.password) setErrors({ password: { text: result.errors.password } });
    else setFailure(errorText(result));
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={intl.formatMessage({ id: 'resetPassword.form' })}>
      <Field
        label={intl.formatMessage({ id: 'resetPassword.newPassword' })}
        error={say(intl, errors.password)}
        hint={intl.formatMessage({ id: 'resetPassword.passwordHint' }, { min: PASSWORD_MIN_LENGTH })}
      >
        <input
          className="input"
          type="password"
          autoComplete="new-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <Field label={intl.formatMessage({ id: 'resetPassword.confirmPassword' })} error={say(intl, errors.confirm)}>
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
            <FormattedMessage
              id="resetPassword.failed"
              values={{
                message: failure,
                link: (chunks) => <Link to={paths.forgotPassword.getHref()}>{chunks}</Link>,
              }}
            />
          </span>
        </Banner>
      )}
      <Button type="submit" variant="primary" block pending={pending}>
        <FormattedMessage id="resetPassword.submit" />
      </Button>
      <p className="muted auth-note">
        <FormattedMessage id="resetPassword.otherDevices" />
      </p>
    </form>
  );
}
