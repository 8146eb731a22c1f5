import type { EmailConfirmAnswer } from '@pollscope/contract';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { Loading } from '../../../components/ui/loading';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { confirmEmail } from '../api/confirm-email';

type Outcome =
  { state: 'confirming' } | { state: 'confirmed'; answer: EmailConfirmAnswer } | { state: 'failed'; error: ApiError };

/** Confirms a new email with the token of the mailed link as soon as it opens: the link is used once. */
export function ConfirmEmail({ token }: { token: string }) {
  const intl = useIntl();
  const errorText = useErrorText();
  const [outcome, setOutcome] = useState<Outcome>({ state: 'confirming' });
  // Sent once per token, even when React runs the effect twice (strict mode): a second use would fail.
  const sentFor = useRef<string | null>(null);

  useEffect(() => {
    if (sentFor.current === token) return;
    sentFor.current = token;
    void confirmEmail({ token }).then((result) =>
      setOutcome(
        result instanceof ApiError ? { state: 'failed', error: result } : { state: 'confirmed', answer: result },
      ),
    );
  }, [token]);

  const preferences = (chunks: ReactNode[]) => <Link to={paths.settings.getHref()}>{chunks}</Link>;
  if (outcome.state === 'confirming')
    return <Loading label={intl.formatMessage({ id: 'account.confirmEmail.confirming' })} />;
  if (outcome.state === 'confirmed') {
    return (
      <Banner tone="success">
        <span>
          <FormattedMessage
            id="account.confirmEmail.done"
            values={{ email: outcome.answer.email, strong: (chunks) => <strong>{chunks}</strong>, link: preferences }}
          />
        </span>
      </Banner>
    );
  }
  return (
    <Banner tone="error">
      <span>
        <FormattedMessage
          id="account.confirmEmail.failed"
          values={{ message: errorText(outcome.error), link: preferences }}
        />
      </span>
    </Banner>
  );
}
