import type { UserStats } from '@pollscope/contract';
import { useState } from 'react';
import { FormattedMessage } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { BlockIcon, CheckIcon, FlagIcon, UserPlusIcon } from '../../../components/ui/icons';
import { useErrorText } from '../../../hooks/use-error-text';
import { useReport } from '../../../hooks/use-report';
import { ApiError } from '../../../lib/api-client';
import { setBlocking } from '../api/block-user';
import { setFollowing } from '../api/follow-user';

interface SocialActionsProps {
  user: Pick<UserStats, 'id' | 'name' | 'connected' | 'blocked'>;
  /** Called after a successful change, so the profile's stats reload. */
  onChanged: () => void;
}

/** Connect/Connected, Block/Unblock and Report; a blocked user cannot be connected to, so Connect hides. */
export function SocialActions({ user, onChanged }: SocialActionsProps) {
  const [pending, setPending] = useState<'connect' | 'block' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const report = useReport();
  const errorText = useErrorText();

  async function run(action: 'connect' | 'block') {
    setPending(action);
    setError(null);
    const result =
      action === 'connect' ? await setFollowing(user.id, !user.connected) : await setBlocking(user.id, !user.blocked);
    setPending(null);
    if (result instanceof ApiError) setError(errorText(result));
    else onChanged();
  }

  return (
    <div className="social-actions">
      {!user.blocked && (
        <Button
          variant={user.connected ? 'secondary' : 'primary'}
          className={user.connected ? 'btn--connected' : undefined}
          pending={pending === 'connect'}
          disabled={pending !== null}
          onClick={() => void run('connect')}
        >
          {user.connected ? <CheckIcon /> : <UserPlusIcon />}
          {user.connected ? <FormattedMessage id="social.connected" /> : <FormattedMessage id="social.connect" />}
        </Button>
      )}
      <Button
        variant={user.blocked ? 'danger' : 'ghost'}
        pending={pending === 'block'}
        disabled={pending !== null}
        onClick={() => void run('block')}
      >
        <BlockIcon />
        {user.blocked ? <FormattedMessage id="social.unblock" /> : <FormattedMessage id="social.block" />}
      </Button>
      {report && (
        <Button
          variant="ghost"
          onClick={(event) => report({ target: 'user', id: user.id, name: user.name }, event.currentTarget)}
        >
          <FlagIcon />
          <FormattedMessage id="social.report" />
        </Button>
      )}
      {error && <Banner tone="error">{error}</Banner>}
    </div>
  );
}
