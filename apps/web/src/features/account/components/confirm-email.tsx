import type { EmailConfirmAnswer } from '@pollscope/contract';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { ApiError } from '../../../lib/api-client';
import { confirmEmail } from '../api/confirm-email';
import { accountMessages } from '../form-messages';

type Outcome =
  { state: 'confirming' } | { state: 'confirmed'; answer: EmailConfirmAnswer } | { state: 'failed'; message: string };

/** Confirms a new email with the token of the mailed link as soon as it opens: the link is used once. */
export function ConfirmEmail({ token }: { token: string }) {
  const [outcome, setOutcome] = useState<Outcome>({ state: 'confirming' });
  // Sent once per token, even when React runs the effect twice (strict mode): a second use would fail.
  const sentFor = useRef<string | null>(null);

  useEffect(() => {
    if (sentFor.current === token) return;
    sentFor.current = token;
    void confirmEmail({ token }).then((result) =>
      setOutcome(
        result instanceof ApiError
          ? { state: 'failed', message: result.message }
          : { state: 'confirmed', answer: result },
      ),
    );
  }, [token]);

  if (outcome.state === 'confirming') return <Loading label="Confirming your new email…" />;
  if (outcome.state === 'confirmed') {
    return (
      <Banner tone="success">
        <span>
          {accountMessages.emailConfirmed} Sign in with <strong>{outcome.answer.email}</strong> from now on.{' '}
          <Link to={paths.settings.getHref()}>Preferences</Link>
        </span>
      </Banner>
    );
  }
  return (
    <Banner tone="error">
      <span>
        {outcome.message}. Your email did not change: ask for a new link in{' '}
        <Link to={paths.settings.getHref()}>Preferences</Link>.
      </span>
    </Banner>
  );
}
