import { displayId, type Notification, type NotificationModeration } from '@pollscope/contract';
import type { ReactNode } from 'react';
import { FormattedMessage } from 'react-intl';
import { Link } from 'react-router';
import { HeartIcon, ShieldIcon, UserPlusIcon, VotesIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import { useFormat } from '../../../i18n/format';
import type { MessageId } from '../../../i18n/i18n-provider';

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
  if (!latest) return <FormattedMessage id="notifications.actors.someone" />;
  if (count === 2 && second)
    return (
      <FormattedMessage
        id="notifications.actors.two"
        values={{ first: <PersonLink person={latest} />, second: <PersonLink person={second} /> }}
      />
    );
  if (count <= 1)
    return <FormattedMessage id="notifications.actors.one" values={{ person: <PersonLink person={latest} /> }} />;
  return (
    <FormattedMessage
      id="notifications.actors.more"
      values={{ first: <PersonLink person={latest} />, others: count - 1 }}
    />
  );
}

/** The question's id and its title, cut short, quoted as the language quotes. */
function QuestionLink({ question }: { question: NonNullable<Notification['question']> }) {
  const short = shortTitle(question.title);
  return (
    <Link to={paths.question.getHref(question.id)} title={short === question.title ? undefined : question.title}>
      <FormattedMessage id="notifications.question" values={{ id: displayId('QID', question.qid), title: short }} />
    </Link>
  );
}

/** A moderator's action on a question or a person in words: with the question it was on, and without one. */
const moderationSentences: Record<
  Exclude<NotificationModeration['action'], 'suspend' | 'unsuspend'>,
  { question: MessageId; none: MessageId }
> = {
  remove: { question: 'notifications.moderation.remove', none: 'notifications.moderation.removeNoQuestion' },
  restore: { question: 'notifications.moderation.restore', none: 'notifications.moderation.restoreNoQuestion' },
  dismiss: { question: 'notifications.moderation.dismiss', none: 'notifications.moderation.dismissProfile' },
  warn: { question: 'notifications.moderation.warn', none: 'notifications.moderation.warnNoQuestion' },
};

/** What a moderator did, in words: to the question when the action was on one, else to the person. */
function ModerationSentence({
  moderation,
  question,
}: {
  moderation: NotificationModeration;
  question: Notification['question'];
}) {
  const format = useFormat();
  if (moderation.action === 'suspend')
    return moderation.until ? (
      <FormattedMessage id="notifications.moderation.suspendUntil" values={{ date: format.day(moderation.until) }} />
    ) : (
      <FormattedMessage id="notifications.moderation.suspend" />
    );
  if (moderation.action === 'unsuspend') return <FormattedMessage id="notifications.moderation.unsuspend" />;
  const sentence = moderationSentences[moderation.action];
  return question ? (
    <FormattedMessage id={sentence.question} values={{ question: <QuestionLink question={question} /> }} />
  ) : (
    <FormattedMessage id={sentence.none} />
  );
}

/** The notification in words, with links to the people and the question it is about. */
function Sentence({ notification }: { notification: Notification }) {
  const { kind, actors, actor_count: actorCount, question, count } = notification;
  const values: Record<string, ReactNode | number> = {
    actors: <Actors actors={actors} count={actorCount} />,
    // How many people, for the languages whose verb agrees with them.
    people: actorCount,
    question: question && <QuestionLink question={question} />,
  };
  if (kind === 'follow') return <FormattedMessage id="notifications.follow" values={values} />;
  if (kind === 'moderation' && notification.moderation)
    return <ModerationSentence moderation={notification.moderation} question={question} />;
  if (kind === 'like')
    return <FormattedMessage id={question ? 'notifications.like' : 'notifications.likeNoQuestion'} values={values} />;
  return (
    <FormattedMessage
      id={question ? 'notifications.votes' : 'notifications.votesNoQuestion'}
      values={{ ...values, count: count ?? 0 }}
    />
  );
}

const kindIcons = { follow: UserPlusIcon, like: HeartIcon, votes: VotesIcon, moderation: ShieldIcon } satisfies Record<
  Notification['kind'],
  unknown
>;

export function NotificationItem({ notification }: { notification: Notification }) {
  const format = useFormat();
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
        {notification.moderation && (
          <p className="notification__reason">
            <FormattedMessage id="notifications.reason" values={{ reason: notification.moderation.reason }} />
          </p>
        )}
        <p className="notification__meta">
          {!notification.read && (
            <span className="notification__unread">
              <FormattedMessage id="notifications.unread" />
            </span>
          )}
          <time dateTime={notification.created_at}>{format.day(notification.created_at)}</time>
        </p>
      </div>
    </li>
  );
}
