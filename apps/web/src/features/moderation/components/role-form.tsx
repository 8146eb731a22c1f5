import { displayId, type RoleBody } from '@pollscope/contract';
import { useState, type FormEvent } from 'react';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { ApiError } from '../../../lib/api-client';
import { setRole } from '../api/set-role';

export const PERSON_INVALID =
  'Give the person’s UID (as their profile shows it, such as UID012) or the link to their profile.';

/** The person's id from what an admin pastes: "UID012", "12", or the address of their profile. */
export function personId(text: string): number | null {
  const match = /^\s*(?:uid\s*0*(\d+)|0*(\d+)|.*\/user\/(\d+)(?:[/?#].*)?)\s*$/i.exec(text);
  const id = Number(match?.[1] ?? match?.[2] ?? match?.[3]);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

const roleWords: Record<RoleBody['role'], string> = { member: 'a member', moderator: 'a moderator' };

/** Admins name moderators, and make them members again; admins themselves come from the server's settings. */
export function RoleForm() {
  const [person, setPerson] = useState('');
  const [role, setRoleChoice] = useState<RoleBody['role']>('moderator');
  const [personError, setPersonError] = useState<string | null>(null);
  const [result, setResult] = useState<{ tone: 'success' | 'error'; text: string } | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setResult(null);
    const user = personId(person);
    if (user === null) {
      setPersonError(PERSON_INVALID);
      return;
    }
    setPending(true);
    const answer = await setRole({ user, role });
    setPending(false);
    if (answer instanceof ApiError) setResult({ tone: 'error', text: answer.message });
    else setResult({ tone: 'success', text: `${displayId('UID', user)} is now ${roleWords[role]}.` });
  }

  return (
    <section className="card stack" aria-labelledby="role-form-title">
      <div className="stack role-form__intro">
        <h2 id="role-form-title">Moderators</h2>
        <p className="muted">
          Moderators read the reports and act on them. Make someone a moderator, or a member again, by their UID: it
          shows under their name on their profile. Admins are named in the server’s settings.
        </p>
      </div>
      <form className="form role-form" onSubmit={submit} noValidate>
        <Field label="Person" hint="UID012, or the link to their profile" error={personError ?? undefined}>
          <input
            className="input"
            value={person}
            autoComplete="off"
            onChange={(event) => {
              setPerson(event.target.value);
              setPersonError(null);
            }}
          />
        </Field>
        <Field label="Role">
          <select
            className="select"
            value={role}
            onChange={(event) => setRoleChoice(event.target.value as RoleBody['role'])}
          >
            <option value="moderator">Moderator</option>
            <option value="member">Member</option>
          </select>
        </Field>
        <div className="form-actions">
          <Button type="submit" variant="primary" pending={pending}>
            Set role
          </Button>
        </div>
      </form>
      {result && <Banner tone={result.tone}>{result.text}</Banner>}
    </section>
  );
}
