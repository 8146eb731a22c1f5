import { displayId } from '@pollscope/contract';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { Button } from '../../../components/ui/button';
import { CheckIcon, UserPlusIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../hooks/use-error-text';
import { ApiError } from '../../../lib/api-client';
import { setFollowing } from '../api/follow-user';
import './social.css';

/** A person shown with a Connect button: found by name, or suggested with a reason. */
export interface ListedPerson {
  id: number;
  name: string;
  asked: number;
  /** Whether the viewer follows them; people suggested are not followed yet. */
  connected?: boolean;
  /** Why they are suggested, in words. */
  reason?: string;
}

interface PeopleListProps {
  people: ListedPerson[];
  label: string;
  /** Called once the viewer connected to or disconnected from someone. */
  onConnectedChange?: (person: ListedPerson, connected: boolean) => void;
}

function PersonRow({
  person,
  onConnectedChange,
}: {
  person: ListedPerson;
  onConnectedChange: PeopleListProps['onConnectedChange'];
}) {
  const [connected, setConnected] = useState(person.connected ?? false);
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const nameId = useId();
  const intl = useIntl();
  const errorText = useErrorText();

  async function toggle() {
    setPending(true);
    setError(null);
    const result = await setFollowing(person.id, !connected);
    setPending(false);
    if (result instanceof ApiError) {
      setError(errorText(result));
      return;
    }
    setConnected(result.connected);
    onConnectedChange?.(person, result.connected);
  }

  return (
    <li className="person">
      <span className="person__avatar" aria-hidden="true">
        {person.name.slice(0, 1).toUpperCase()}
      </span>
      <div className="person__text">
        <Link to={paths.user.getHref(person.id)} className="person__name" id={nameId}>
          {person.name}
        </Link>
        <p className="person__detail">
          {person.reason ?? intl.formatMessage({ id: 'social.people.asked' }, { count: person.asked })}
          <span aria-hidden="true"> · </span>
          <span className="mono">{displayId('UID', person.id)}</span>
        </p>
        {error && (
          <p className="field__error" role="alert">
            {error}
          </p>
        )}
      </div>
      <Button
        size="small"
        variant={connected ? 'secondary' : 'primary'}
        className={connected ? 'btn--connected' : undefined}
        pending={pending}
        aria-describedby={nameId}
        onClick={() => void toggle()}
      >
        {connected ? <CheckIcon /> : <UserPlusIcon />}
        {connected ? <FormattedMessage id="social.connected" /> : <FormattedMessage id="social.connect" />}
      </Button>
    </li>
  );
}

/** People, each with their name, why they are shown and a Connect/Connected button. */
export function PeopleList({ people, label, onConnectedChange }: PeopleListProps) {
  return (
    <ul className="people card" aria-label={label}>
      {people.map((person) => (
        <PersonRow key={person.id} person={person} onConnectedChange={onConnectedChange} />
      ))}
    </ul>
  );
}
