import { displayId, type RoleBody } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { setRole } from '../api/set-role';

/** The person's id from what an admin pastes: "UID012", "12", or the address of their profile. */
export function personId(text: string): number | null {
  const match = /^\s*(?:uid\s*0*(\d+)|0*(\d+)|.*\/user\/(\d+)(?:[/?#].*)?)\s*$/i.exec(text);
  const id = Number(match?.[1] ?? match?.[2] ?? match?.[3]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Admins name moderators, and make them members again; admins themselves come from the server's settings. */
export function RoleForm() {
  const intl = useIntl();
  const errorText = useErrorText();
  const [person, setPerson] = useState('');
  const [role, setRoleChoice] = useState<RoleBody['role']>('moderator');
  const [personError, setPersonError] = useState<boolean>(false);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setResult(null);
    const user = personId(person);
    if (user === null) {
      setPersonError(true);
      return;
    }
    setPending(true);
    const answer = await setRole({ user, role });
    setPending(false);
    if (answer instanceof ApiError) setResult({ tone: 'error', text: errorText(answer) });
    else
      setResult({
        tone: 'success',
        text: intl.formatMessage({ id: 'moderation.roles.done' }, { person: displayId('UID', user), role }),
      });
  }

  return (
    <section className="card stack" aria-labelledby="role-form-title">
      <div className="stack role-form__intro">
        <h2 id="role-form-title">
          <FormattedMessage id="moderation.roles.title" />
        </h2>
        <p className="muted">
          <FormattedMessage id="moderation.roles.intro" />
        </p>
      </div>
      <form className="form role-form" onSubmit={submit} noValidate>
        <Field
          label={intl.formatMessage({ id: 'moderation.roles.person' })}
          hint={intl.formatMessage({ id: 'moderation.roles.personHint' })}
          error={personError ? intl.formatMessage({ id: 'moderation.roles.personInvalid' }) : undefined}
        >
          <input
            className="input"
            value={person}
            autoComplete="off"
            onChange={(event) => {
              setPerson(event.target.value);
              setPersonError(false);
            }}
          />
        </Field>
        <Field label={intl.formatMessage({ id: 'moderation.roles.role' })}>
          <select
            className="select"
            value={role}
            onChange={(event) => setRoleChoice(event.target.value as RoleBody['role'])}
          >
            <option value="moderator">{intl.formatMessage({ id: 'moderation.roles.moderator' })}</option>
            <option value="member">{intl.formatMessage({ id: 'moderation.roles.member' })}</option>
          </select>
        </Field>
        <div className="form-actions">
          <Button type="submit" variant="primary" pending={pending}>
            <FormattedMessage id="moderation.roles.submit" />
          </Button>
        </div>
      </form>
      {result && <Banner tone={result.tone}>{result.text}</Banner>}
    </section>
  );
}
