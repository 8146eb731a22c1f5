import { useState, type FormEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { clearToken } from '../../../lib/auth-token';
import { deleteAccount } from '../api/delete-account';
import './account.css';

/** The words a person types to say they mean it: deleting cannot be undone. */
export const DELETE_CONFIRMATION = 'delete my account';

/** "Delete my account": the password again and the confirmation in words, then everything goes. */
export function DeleteAccountForm({ onDeleted }: { onDeleted: () => void }) {
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [errors, setErrors] = useState<{ password?: string; confirmation?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    const found = {
      ...(password === '' && { password: 'Enter your password' }),
      ...(confirmation.trim().toLowerCase() !== DELETE_CONFIRMATION && {
        confirmation: `Type “${DELETE_CONFIRMATION}” to confirm`,
      }),
    };
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setPending(true);
    const result = await deleteAccount({ password });
    setPending(false);
    if (result instanceof ApiError) {
      if (result.errors.password) setErrors({ password: result.errors.password });
      else setFailure(result.message);
      return;
    }
    clearToken();
    onDeleted();
  }

  return (
    <section className="card stack danger-zone" aria-labelledby="delete-account-title">
      <h2 id="delete-account-title">Delete my account</h2>
      <p className="muted">
        This deletes your account at once, with your questions and every vote on them, your votes and likes, your
        connections, blocks and notifications. Results elsewhere are counted again without your votes. It cannot be
        undone: download your data first if you want to keep it.
      </p>
      <form className="form" onSubmit={submit} noValidate aria-label="Delete my account">
        <div className="form-grid">
          <Field label="Password" error={errors.password}>
            <input
              className="input"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(event) => setPassword(event.target.value)}
            />
          </Field>
          <Field label={`Type “${DELETE_CONFIRMATION}”`} error={errors.confirmation}>
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
            Delete my account
          </Button>
        </div>
      </form>
    </section>
  );
}
