import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { withDestination } from '../../../lib/destination';
import { login } from '../api/login';

export const LOGIN_FAILED_MESSAGE = 'Wrong username or password!';

interface LoginFormProps {
  /** Where to go once signed in, which signing up instead leads to as well. */
  destination?: string | null;
  onSignedIn: (token: string) => void;
}

export function LoginForm({ destination = null, onSignedIn }: LoginFormProps) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setPending(true);
    const result = await login({ email: email.trim(), password });
    setPending(false);
    // Too many attempts, and a suspension (its reason and end), are worth saying as the server says them; every other
    // failure is a wrong pair.
    if (result instanceof ApiError)
      setError(result.status === 429 || result.status === 403 ? result.message : LOGIN_FAILED_MESSAGE);
    else if (!result.token) setError(LOGIN_FAILED_MESSAGE);
    else onSignedIn(result.token);
  }

  return (
    <form className="form" onSubmit={submit} aria-label="Log in">
      <Field label="Email">
        <input
          className="input"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(event) => setEmail(event.target.value)}
        />
      </Field>
      <Field label="Password">
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
        Forgot password?
      </Link>
      {error && <Banner tone="error">{error}</Banner>}
      <Button type="submit" variant="primary" block pending={pending}>
        Log in
      </Button>
      <p className="auth-switch">
        New to POLLSCOPE? <Link to={withDestination(paths.register.getHref(), destination)}>Create an account</Link> or{' '}
        <Link to={withDestination(paths.quiz.getHref(), destination)}>take the quick quiz</Link>
      </p>
    </form>
  );
}
