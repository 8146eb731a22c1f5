import { displayId, type Notification, type NotificationModeration } from '@pollscope/contract';
import { Link } from 'react-router';
import { HeartIcon, ShieldIcon, UserPlusIcon, VotesIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import { formatDate, votesLabel } from '../../../lib/question-shape';

/** Longer titles are cut at a word, so that a sentence keeps to a line or two. */
const TITLE_LENGTH = 32;

function shortTitle(title: string): string {
  if (title.length <= TITLE_LENGTH) return title;
  const cut = title.slice(0, TITLE_LENGTH + 1);
  const lastSpace = cut.lastIndexOf(' ');
  // A title without a space in its first half is cut mid-word rather than left nearly empty.
  const words = lastSpace > TITLE_LENGTH / 2 ? cut.slice(0, lastSpace) : cut.slice(0, TITLE_LENGTH);
  return `${words.replace(/[\s,.;:!?'"-]+$/, '')}…`;
}

type Person = Notification['actors'][number];

function PersonLink({ person }: { person: Person }) {
  return <Link to={paths.user.getHref(person.id)}>{person.name}</Link>;
}

/** "Bob", "Bob and Ann", "Bob and 3 others": the latest person by name, and a second one when there are just two. */
function Actors({ actors, count }: { actors: Person[]; count: number }) {
  const [latest, second] = actors;
  // People who have since left are no longer listed.
  if (!latest) return <>Someone</>;
  if (count === 2 && second)
    return (
      <>
        <PersonLink person={latest} /> and <PersonLink person={second} />
      </>
    );
  if (count <= 1) return <PersonLink person={latest} />;
  const others = count - 1;
  return (
    <>
      <PersonLink person={latest} /> and {others} {others === 1 ? 'other' : 'others'}
    </>
  );
}

function QuestionLink({ question }: { question: NonNullable<Notification['question']> }) {
  const short = shortTitle(question.title);
  return (
    <Link to={paths.question.getHref(question.id)} title={short === question.title ? undefined : question.title}>
      {displayId('QID', question.qid)} '{short}'
    </Link>
  );
}

/** What a moderator did, in words: to the question when the action was on one, else to the person. */
function ModerationSentence({
  moderation,
  question,
}: {
  moderation: NotificationModeration;
  question: Notification['question'];
}) {
  const yourQuestion = question ? (
    <>
      your question <QuestionLink question={question} />
    </>
  ) : (
    'your question'
  );
  switch (moderation.action) {
    case 'remove':
      return <>A moderator removed {yourQuestion}</>;
    case 'restore':
      return <>A moderator restored {yourQuestion}</>;
    case 'dismiss':
      return <>A moderator closed the reports on {question ? yourQuestion : 'your profile'}</>;
    case 'warn':
      return question ? <>A moderator warned you about {yourQuestion}</> : <>A moderator warned you</>;
    case 'suspend':
      return (
        <>
          A moderator suspended your account{' '}
          {moderation.until ? `until ${formatDate(moderation.until)}` : 'with no end date'}
        </>
      );
    case 'unsuspend':
      return <>A moderator lifted your suspension</>;
  }
}

/** The notification in words, with links to the people and the question it is about. */
function Sentence({ notification }: { notification: Notification }) {
  const { kind, actors, actor_count: actorCount, question, count } = notification;
  const actorsPhrase = <Actors actors={actors} count={actorCount} />;
  if (kind === 'follow') return <>{actorsPhrase} followed you</>;
  if (kind === 'moderation' && notification.moderation)
    return <ModerationSentence moderation={notification.moderation} question={question} />;
  if (kind === 'like')
    return (
      <>
        {actorsPhrase} liked {question ? <QuestionLink question={question} /> : 'your question'}
      </>
    );
  return (
    <>
      Your question {question && <QuestionLink question={question} />} reached {votesLabel(count ?? 0)}
    </>
  );
}

const kindIcons = { follow: UserPlusIcon, like: HeartIcon, votes: VotesIcon, moderation: ShieldIcon } satisfies Record<
  Notification['kind'],
  unknown
>;

export function NotificationItem({ notification }: { notification: Notification }) {
  const KindIcon = kindIcons[notification.kind];
  return (
    <li className={notification.read ? 'notification' : 'notification notification--unread'}>
      <span className="notification__icon" aria-hidden="true">
        <KindIcon />
      </span>
      <div className="notification__body">
        <p className="notification__text">
          <Sentence notification={notification} />
        </p>
        {notification.moderation && <p className="notification__reason">Reason: {notification.moderation.reason}</p>}
        <p className="notification__meta">
          {!notification.read && <span className="notification__unread">Unread</span>}
          <time dateTime={notification.created_at}>{formatDate(notification.created_at)}</time>
        </p>
      </div>
    </li>
  );
}
