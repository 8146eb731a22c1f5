import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { requestPasswordReset } from '../api/password-reset';

/**
 * Asks for a link to choose a new password. The server answers alike whether or not the address has an account, and so
 * does this form.
 */
export function ForgotPasswordForm() {
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
    if (result instanceof ApiError) setError(result.errors.email ?? result.message);
    else setSent(result.message);
  }

  if (sent) {
    return (
      <div className="form">
        <Banner tone="success">{sent}</Banner>
        <p className="muted">
          Nothing after a few minutes? Look in your spam folder, or check the address and ask again.
        </p>
        <div className="form-actions form-actions--spread">
          <Button onClick={() => setSent(null)}>Ask again</Button>
          <Link to={paths.login.getHref()} className="auth-link">
            Back to log in
          </Link>
        </div>
      </div>
    );
  }

  return (
    <form className="form" onSubmit={submit} aria-label="Forgot password">
      <Field label="Email" hint="The address you sign in with">
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
        Send me a link
      </Button>
      <p className="auth-switch">
        Remembered it? <Link to={paths.login.getHref()}>Log in</Link>
      </p>
    </form>
  );
}
