import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { withDestination } from '../../../lib/destination';
import { login } from '../api/login';

interface LoginFormProps {
  /** Where to go once signed in, which signing up instead leads to as well. */
  destination?: string | null;
  onSignedIn: (token: string) => void;
}

export function LoginForm({ destination = null, onSignedIn }: LoginFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const intl = useIntl();
  const errorText = useErrorText();
  // The failure, or a wrong pair, said when shown: the app's own words follow a switch of language.
  const [error, setError] = useState<ApiError | 'failed' | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setPending(true);
    const result = await login({ email: email.trim(), password });
    setPending(false);
    // Too many attempts, and a suspension (its reason and end), are worth saying as the server says them, and a server
    // not reached as the app says it; every other failure is a wrong pair.
    if (result instanceof ApiError)
      setError(result.status === 429 || result.status === 403 || result.said ? result : 'failed');
    else if (!result.token) setError('failed');
    else onSignedIn(result.token);
  }

  return (
    <form className="form" onSubmit={submit} aria-label={intl.formatMessage({ id: 'login.form' })}>
      <Field label={intl.formatMessage({ id: 'login.email' })}>
        <input
          className="input"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      <Field label={intl.formatMessage({ id: 'login.password' })}>
        <input
          className="input"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
      </Field>
      <Link to={paths.forgotPassword.getHref()} className="auth-forgot">
        <FormattedMessage id="login.forgotPassword" />
      </Link>
      {error && (
        <Banner tone="error">{error === 'failed' ? <FormattedMessage id="login.failed" /> : errorText(error)}</Banner>
      )}
      <Button type="submit" variant="primary" block pending={pending}>
        <FormattedMessage id="login.submit" />
      </Button>
      <p className="auth-switch">
        <FormattedMessage
          id="login.newHere"
          values={{
            register: (chunks) => <Link to={withDestination(paths.register.getHref(), destination)}>{chunks}</Link>,
            quiz: (chunks) => <Link to={withDestination(paths.quiz.getHref(), destination)}>{chunks}</Link>,
          }}
        />
      </p>
    </form>
  );
}
