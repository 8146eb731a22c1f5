import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { requestPasswordReset } from '../api/password-reset';

/**
 * Asks for a link to choose a new password. The server answers alike whether or not the address has an account, and so
 * does this form.
 */
export function ForgotPasswordForm() {
  const intl = useIntl();
  const errorText = useErrorText();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setPending(true);
    const result = await requestPasswordReset({ email: email.trim() });
    setPending(false);
    if (result instanceof ApiError) setError(result.errors.email ?? errorText(result));
    else setSent(result.message);
  }

  if (sent) {
    return (
      <div className="form">
        <Banner tone="success">{sent}</Banner>
        <p className="muted">
          <FormattedMessage id="forgotPassword.nothingYet" />
        </p>
        <div className="form-actions form-actions--spread">
          <Button onClick={() => setSent(null)}>
            <FormattedMessage id="forgotPassword.askAgain" />
          </Button>
          <Link to={paths.login.getHref()} className="auth-link">
            <FormattedMessage id="forgotPassword.backToLogin" />
          </Link>
        </div>
      </div>
    );
  }

  return (
    <form className="form" onSubmit={submit} aria-label={intl.formatMessage({ id: 'forgotPassword.form' })}>
      <Field
        label={intl.formatMessage({ id: 'forgotPassword.email' })}
        hint={intl.formatMessage({ id: 'forgotPassword.emailHint' })}
      >
        <input
          className="input"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      {error && <Banner tone="error">{error}</Banner>}
      <Button type="submit" variant="primary" block pending={pending}>
        <FormattedMessage id="forgotPassword.submit" />
      </Button>
      <p className="auth-switch">
        <FormattedMessage
          id="forgotPassword.remembered"
          values={{ link: (chunks) => <Link to={paths.login.getHref()}>{chunks}</Link> }}
        />
      </p>
    </form>
  );
}
