import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { clearToken } from '../../../lib/auth-token';
import { say, type FormMessage } from '../../../lib/form-message';
import { deleteAccount } from '../api/delete-account';
import './account.css';

type DeleteErrors = { password?: FormMessage; confirmation?: FormMessage };

/** What is missing before an account may go: the password, or the confirmation phrase (in any case). */
function missingForDeletion(password: string, confirmation: string, phrase: string, locale: string): DeleteErrors {
  return {
    ...(password === '' && { password: { id: 'account.delete.passwordMissing' } as const }),
    ...(confirmation.trim().toLocaleLowerCase(locale) !== phrase.toLocaleLowerCase(locale) && {
      confirmation: { id: 'account.delete.phraseMissing', values: { phrase } } as const,
    }),
  };
}

/** "Delete my account": the password again and the confirmation in words, then everything goes. */
export function DeleteAccountForm({ onDeleted }: { onDeleted: () => void }) {
  const intl = useIntl();
  const errorText = useErrorText();
  // The words a person types to say they mean it, in their language: deleting cannot be undone.
  const phrase = intl.formatMessage({ id: 'account.delete.phrase' });
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<DeleteErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const found = missingForDeletion(password, confirmation, phrase, intl.locale);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const result = await deleteAccount({ password });
    setPending(false);
    if (result instanceof ApiError) {
      if (result.errors.password) setErrors({ password: { text: result.errors.password } });
      else setFailure(errorText(result));
      return;
    }
    clearToken();
    onDeleted();
  }

  return (
    <section className="card stack danger-zone" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">
        <FormattedMessage id="account.delete.title" />
      </h2>
      <p className="muted">
        <FormattedMessage id="account.delete.explanation" />
      </p>
      <form
        className="form"
        onSubmit={submit}
        noValidate
        aria-label={intl.formatMessage({ id: 'account.delete.title' })}
      >
        <div className="form-grid">
          <Field label={intl.formatMessage({ id: 'account.delete.password' })} error={say(intl, errors.password)}>
            <input
              className="input"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </Field>
          <Field
            label={intl.formatMessage({ id: 'account.delete.typePhrase' }, { phrase })}
            error={say(intl, errors.confirmation)}
          >
            <input
              className="input"
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={confirmation}
              onChange={(event) => setConfirmation(event.target.value)}
            />
          </Field>
        </div>
        {failure && <Banner tone="error">{failure}</Banner>}
        <div className="form-actions">
          <Button type="submit" variant="danger" pending={pending}>
            <FormattedMessage id="account.delete.submit" />
          </Button>
        </div>
      </form>
    </section>
  );
}
