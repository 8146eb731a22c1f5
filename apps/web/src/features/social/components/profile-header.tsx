import { ageOn, displayId } from '@pollscope/contract';
import { Banner } from '../../../components/ui/banner';
import { Loading } from '../../../components/ui/loading';
import { formatDate } from '../../../lib/question-shape';
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

export function ProfileHeader({ userId, isSelf, onRelationChanged }: ProfileHeaderProps) {
  const { data: user, error, mutate } = useUserStats(userId);
  if (error) return <Banner tone="error">{(error as Error).message}</Banner>;
  if (!user) return <Loading />;

  const today = new Date().toISOString().slice(0, 10);
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
            {user.blocked && <span className="profile__badge">Blocked</span>}
          </p>
        </div>
      </div>
      <dl className="profile__facts">
        <div>
          <dt>Age</dt>
          <dd>
            {ageOn(user.birthdate, today)}{' '}
            <span className="muted">(born {formatDate(`${user.birthdate}T00:00:00Z`)})</span>
          </dd>
        </div>
        <div>
          <dt>Lives in</dt>
          <dd>{user.livein}</dd>
        </div>
      </dl>
      <dl className="stat-row">
        <div>
          <dt>Asked</dt>
          <dd>{user.question}</dd>
        </div>
        <div>
          <dt>Answered</dt>
          <dd>{user.answer}</dd>
        </div>
        <div>
          <dt>Liked</dt>
          <dd>{user.like}</dd>
        </div>
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
