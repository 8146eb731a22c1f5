import { ageOn, displayId } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { Banner } from '../../../components/ui/banner';
import { Loading } from '../../../components/ui/loading';
import { useErrorText } from '../../../hooks/use-error-text';
import { useFormat } from '../../../i18n/format';
import { useApiData } from '../../../lib/api-data';
import { apiPath } from '../../../lib/api-path';
import { referenceData } from '../../../lib/swr-config';
import { useUserStats } from '../api/get-user-stats';
import { SocialActions } from './social-actions';
import './social.css';

interface ProfileHeaderProps {
  userId: string;
  /** The viewer's own profile shows no Connect or Block. */
  isSelf: boolean;
  /** Called after connecting, blocking or undoing either. */
  onRelationChanged?: () => void;
}

/**
 * A country the API names in English, named in the reader's language from its ISO code (the
 * countries list, kept once read); the English name until the list is here, or where the browser
 * knows no name for it.
 */
function useCountryName(englishName: string | undefined): string | undefined {
  const intl = useIntl();
  const { data: countries } = useApiData(apiPath('/api/polls/countries/'), referenceData);
  const code = countries?.find((country) => country.name === englishName)?.code;
  return (code && intl.formatDisplayName(code, { type: 'region', fallback: 'none' })) || englishName;
}

export function ProfileHeader({ userId, isSelf, onRelationChanged }: ProfileHeaderProps) {
  const intl = useIntl();
  const format = useFormat();
  const errorText = useErrorText();
  const { data: user, error, mutate } = useUserStats(userId);
  const livesIn = useCountryName(user?.livein);
  if (error) return <Banner tone="error">{errorText(error)}</Banner>;
  if (!user) return <Loading />;

  const today = new Date().toISOString().slice(0, 10);
  const counts = [
    { label: intl.formatMessage({ id: 'social.profile.asked' }), value: user.question },
    { label: intl.formatMessage({ id: 'social.profile.answered' }), value: user.answer },
    { label: intl.formatMessage({ id: 'social.profile.liked' }), value: user.like },
  ];
  return (
    <section className="profile card" aria-labelledby="profile-name">
      <div className="profile__identity">
        <span className="profile__avatar" aria-hidden="true">
          {user.name.slice(0, 1).toUpperCase()}
        </span>
        <div className="profile__names">
          <h1 id="profile-name">{user.name}</h1>
          <p className="muted">
            <span className="mono">{displayId('UID', user.id)}</span>
            {user.blocked && (
              <span className="profile__badge">
                <FormattedMessage id="social.profile.blocked" />
              </span>
            )}
          </p>
        </div>
      </div>
      <dl className="profile__facts">
        <div>
          <dt>
            <FormattedMessage id="social.profile.age" />
          </dt>
          <dd>
            <FormattedMessage
              id="social.profile.ageBorn"
              values={{
                age: ageOn(user.birthdate, today),
                born: format.day(`${user.birthdate}T00:00:00Z`),
                muted: (chunks) => <span className="muted">{chunks}</span>,
              }}
            />
          </dd>
        </div>
        <div>
          <dt>
            <FormattedMessage id="social.profile.livesIn" />
          </dt>
          <dd>{livesIn}</dd>
        </div>
      </dl>
      <dl className="stat-row">
        {counts.map(({ label, value }) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{format.count(value)}</dd>
          </div>
        ))}
      </dl>
      {!isSelf && (
        <SocialActions
          user={user}
          onChanged={() => {
            void mutate();
            onRelationChanged?.();
          }}
        />
      )}
    </section>
  );
}
