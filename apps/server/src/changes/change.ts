import type { NotificationModeration, QuestionModeration } from '@pollscope/contract';

/**
 * Every change the app commits: what an instance keeps in memory may hold a copy of it, and `/metrics` counts it by
 * kind. Each is produced where its write commits, causes what it causes in that transaction, and is applied by each
 * owner of a copy or stream (reactions.ts), on the instance that made it and, through Redis, on every other; a new kind
 * is a new member here, and the compiler then lists each place that must handle it.
 */
export type Change =
  /**
   * A vote, with its place in its question's order, the question's vote count with it and the voter's state version
   * after it.
   */
  | { kind: 'voted'; questionId: number; voterId: number; choice: number; seq: number; count: number; version: number }
  | { kind: 'liked' | 'unliked'; questionId: number; userId: number; version: number }
  /** The person hid (passed) the question, or showed it again. */
  | { kind: 'passed' | 'unpassed'; questionId: number; userId: number; version: number }
  | { kind: 'asked'; questionId: number; authorId: number; categoryId: number | null; tags: string[] }
  /** The person's first name changed: every question of theirs shows it. */
  | { kind: 'renamed'; userId: number }
  /** The person's voter group (birth year, country) or favourites changed. */
  | { kind: 'profileChanged'; userId: number }
  | { kind: 'followed' | 'unfollowed'; followerId: number; followeeId: number }
  | { kind: 'blocked' | 'unblocked'; blockerId: number; blockedId: number }
  /** One session was signed out; its token's hash, never the token, travels between instances. */
  | { kind: 'sessionEnded'; userId: number; tokenHash: string }
  /** The password changed, and every session of the person but the one of `keptTokenHash` ended with it. */
  | { kind: 'passwordChanged'; userId: number; keptTokenHash: string }
  /** Notifications were written for the person in the transaction of what they tell (a cause, reactions.ts). */
  | { kind: 'notified'; userId: number }
  /** The person marked notifications read. */
  | { kind: 'notificationsRead'; userId: number }
  /**
   * The person deleted their account, and with it their questions (`questionIds`), their votes
   * and likes on others' questions (`touchedQuestionIds`, whose counts moved) and their part in
   * others' notifications (`notifiedIds`: whose unread counts may have moved).
   */
  | {
      kind: 'accountDeleted';
      userId: number;
      questionIds: number[];
      touchedQuestionIds: number[];
      notifiedIds: number[];
    }
  /**
   * What everyone but its author may see of the question changed: a moderator removed or restored
   * it, reports hid it for review, or a decision showed it again (`moderation` null).
   */
  | { kind: 'questionModerated'; questionId: number; authorId: number; moderation: QuestionModeration | null }
  /**
   * A moderator suspended the person until `until` (for ever when null): every session of theirs ended with it, their
   * questions and profile are withheld.
   */
  | { kind: 'userSuspended'; userId: number; until: string | null }
  /** A moderator ended the person's suspension before its end. */
  | { kind: 'userUnsuspended'; userId: number }
  /**
   * A moderator acted on the person, on their question when `questionId` is given, and the person is to be told what
   * and why (`told`); the notifications area writes what tells them.
   */
  | { kind: 'moderatorActed'; userId: number; questionId: number | null; told: NotificationModeration }
  /**
   * The person reported a question or a person. Nothing kept in memory moves with it: reports that hide a question for
   * review make a `questionModerated` of their own.
   */
  | { kind: 'reported'; reporterId: number; target: 'question' | 'user'; targetId: number };

export type ChangeKind = Change['kind'];

/** The members of `Of` a change of kind `K` may be (one member may have several kinds: `liked` or `unliked`). */
type OfKind<Of extends { kind: string }, K extends Of['kind']> = Of extends unknown
  ? K extends Of['kind']
    ? Of
    : never
  : never;

/** The change of one kind. */
export type ChangeOf<K extends ChangeKind> = OfKind<Change, K>;

/**
 * A change as its write makes it: the state version it moves its person to (`version`) is not the
 * write's to tell, but stamped as it commits (state-versions.ts).
 */
export type ChangeMade = Change extends infer Each
  ? Each extends { version: number }
    ? Omit<Each, 'version'>
    : Each
  : never;

/** The change of one kind as its write makes it. */
export type ChangeMadeOf<K extends ChangeKind> = OfKind<ChangeMade, K>;

/** What an instance hears from Redis: a change, or `missed` once it is back after changes may have gone unheard. */
export type HeardChange = Change | { kind: 'missed' };

export type HeardKind = HeardChange['kind'];

/** What an instance hears of one kind. */
export type HeardOf<K extends HeardKind> = OfKind<HeardChange, K>;

/** Every kind once: a kind missing here is a compile error, so a new kind crosses instances too. */
const KNOWN_KINDS: Record<ChangeKind, true> = {
  voted: true,
  liked: true,
  unliked: true,
  passed: true,
  unpassed: true,
  asked: true,
  renamed: true,
  profileChanged: true,
  followed: true,
  unfollowed: true,
  blocked: true,
  unblocked: true,
  sessionEnded: true,
  passwordChanged: true,
  notified: true,
  notificationsRead: true,
  accountDeleted: true,
  questionModerated: true,
  userSuspended: true,
  userUnsuspended: true,
  moderatorActed: true,
  reported: true,
};

/** A change as it crosses to the other instances, or `missed` from one whose changes could not cross. */
export function encodeChange(from: string, change: HeardChange): string {
  return JSON.stringify({ from, change });
}

/** A change heard from another instance, or null for one of this instance's own or a message it cannot read. */
export function decodeChange(self: string, message: string): HeardChange | null {
  try {
    const { from, change } = JSON.parse(message) as { from?: unknown; change?: { kind?: unknown } };
    if (
      from === self ||
      typeof change?.kind !== 'string' ||
      !(Object.hasOwn(KNOWN_KINDS, change.kind) || change.kind === 'missed')
    )
      return null;
    return change as HeardChange;
  } catch {
    return null;
  }
}
