import type { ModerationAction, ReportOutcome, ReportReason, ReportTarget, Role } from '@pollscope/contract';
import type { Generated, Insertable, Selectable } from 'kysely';

/** Booleans are stored as 0/1 integers so that both dialects read them alike. */
type Flag = number;

export interface CountryTable {
  /** ISO 3166-1 numeric code. */
  id: number;
  code: string;
  name: string;
}

export interface CategoryTable {
  id: number;
  name: string;
}

export interface UserTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  first_name: string;
  birthdate: string;
  birth_year: number;
  gender: 'F' | 'M';
  country_id: number;
  favorite_category_id: number | null;
  favorite_topic: string | null;
  notification: Generated<Flag>;
  question_count: Generated<number>;
  answer_count: Generated<number>;
  like_count: Generated<number>;
  /** Moves with every change to what this person sees of their own (migration 004). */
  state_version: Generated<number>;
  created_at: string;
  /** When the last notification mail was queued (migration 007). */
  notifications_mailed_at: string | null;
  /** The token of the unsubscribe link in their notification mail, made with the first one. */
  unsubscribe_token: string | null;
  /** The first name as people search finds it (lib/search-text.ts `searchName`), written with it (migration 009). */
  search_name: string;
  /** Member, moderator or admin (migration 017). */
  role: Generated<Role>;
  /** Why a moderator suspended the person; null when they are not suspended (migration 017). */
  suspension_reason: string | null;
  /** When a suspension ends; null with a reason: for ever. */
  suspended_until: string | null;
  /** A hash of the network registered from, for the moderation queue; null before migration 022. */
  registered_network: string | null;
  /** The language of the interface and of mail, one of the UI locales; `en` before migration 023. */
  language: Generated<string>;
  /** The ISO 639-1 codes of the questions to show, as a JSON array; null for all (migration 023). */
  question_languages: string | null;
}

/**
 * The email of the site's own account, which asks the quiz questions (seeded with the reference
 * data). It is nobody: no one can sign in to it or reset its password, and it is never notified
 * nor counted among the site's people.
 */
export const SYSTEM_EMAIL = 'team@pollscope.invalid';

export interface SessionTable {
  token_hash: string;
  user_id: number;
  created_at: string;
  last_used_at: string;
}

export interface QuestionTable {
  id: Generated<number>;
  user_id: number;
  type: 'MC' | 'RS' | 'N';
  title: string;
  /** The ISO 639-1 code of the language it is written in, chosen when asking; `en` before migration 024. */
  language: Generated<string>;
  category_id: number | null;
  /** MC: JSON array of the choice texts, keyed 1..n in order. RS/N: null. */
  choice_labels: string | null;
  range_min: number | null;
  range_max: number | null;
  published_at: string;
  vote_count: Generated<number>;
  like_count: Generated<number>;
  /** Votes deleted with their voters' accounts: the last vote's seq is `vote_count + votes_removed` (migration 008). */
  votes_removed: Generated<number>;
  /**
   * Withheld from everyone but its author: removed by a moderator, or under review once reports hid it (migration 017).
   */
  moderation: QuestionModerationStatus | null;
  /** The moderator's reason its author is shown, for `removed`. */
  moderation_reason: string | null;
}

export type QuestionModerationStatus = 'removed' | 'under_review';

export interface QuestionTagTable {
  question_id: number;
  tag: string;
}

/**
 * A question's text as search finds it (migration 009, db/search-index.ts): written with the question, never changed.
 */
export interface QuestionSearchDocumentTable {
  question_id: number;
  title: string;
  /** The tags, space-separated. */
  tags: string;
  /** MC choice texts, space-separated; empty for RS and N. */
  choices: string;
  /**
   * The question's language (migration 024): on PostgreSQL, its words are stemmed by that language's text search
   * configuration (db/search-index.ts).
   */
  language: Generated<string>;
}

export interface VoteTable {
  id: Generated<number>;
  question_id: number;
  user_id: number;
  choice: number;
  created_at: string;
  /**
   * The vote's place among its question's votes, from 1: the question's `vote_count + votes_removed` once it was cast.
   */
  seq: number;
  /** The voter's group when the vote was cast: later changes to their settings leave it be. */
  gender: 'F' | 'M';
  birth_year: number;
  country_id: number;
}

/** Votes per question and choice, kept current in the vote's transaction. */
export interface VoteTallyTable {
  question_id: number;
  choice: number;
  count: number;
}

/**
 * Votes per question, country, gender, birth year and choice, kept current in the vote's
 * transaction: breakdown builds its in-memory table of a question from these rows.
 */
export interface VoteSegmentTable {
  question_id: number;
  country_id: number;
  gender: 'F' | 'M';
  birth_year: number;
  choice: number;
  count: number;
}

export interface LikeTable {
  id: Generated<number>;
  question_id: number;
  user_id: number;
  created_at: string;
}

export interface PassTable {
  question_id: number;
  user_id: number;
}

export interface FollowTable {
  follower_id: number;
  followee_id: number;
  created_at: string;
}

export interface BlockTable {
  blocker_id: number;
  blocked_id: number;
  created_at: string;
}

export interface QuestionOfTheDayTable {
  day: string;
  question_id: number | null;
}

export interface QuizItemTable {
  id: Generated<number>;
  question_id: number;
  /** The expected MC key of a strict item. */
  answer: number | null;
  strict: Flag;
}

/**
 * Site activity per UTC day as counted before migration 019 (and by an instance of that version
 * still running while a new one starts): one row a day. The chart adds `daily_activity_shards`.
 */
export interface DailyActivityTable {
  day: string;
  answers: number;
  questions: number;
  users: number;
  likes: number;
}

/**
 * Site activity per UTC day, kept current by the writes that make it, over a few rows a day: a day's counts are the
 * sums of its rows.
 */
export interface DailyActivityShardTable {
  day: string;
  /** Which of the day's rows: each transaction counts on one, picked at random. */
  shard: number;
  answers: number;
  questions: number;
  users: number;
  likes: number;
}

/** What a person is told of (migration 005); `read_at` and `mailed_at` are null until then. */
export interface NotificationTable {
  id: Generated<number>;
  user_id: number;
  kind: 'follow' | 'like' | 'votes' | 'moderation';
  /** The question liked or voted on; null for a follow. */
  question_id: number | null;
  /** The votes reached, for `votes`. */
  count: number | null;
  created_at: string;
  read_at: string | null;
  mailed_at: string | null;
  /** The `Message-ID` of the mail that listed it (migration 013); null when none did. */
  mailed_in: string | null;
  /** For `moderation` (migration 017): what a moderator did, why, and until when a suspension lasts. */
  moderation_action: ModerationAction | null;
  moderation_reason: string | null;
  moderation_until: string | null;
}

/** Who did what a notification tells, each person once; `created_at` moves when they do it again. */
export interface NotificationActorTable {
  notification_id: number;
  actor_id: number;
  created_at: string;
}

/** A mail to send (db/migrations/006-mail-outbox.ts); times are ISO strings. */
export interface MailOutboxTable {
  id: Generated<number>;
  recipient: string;
  /**
   * The account the mail was written for, the one that had `recipient` then; null once it is deleted, or for mail
   * queued before migration 016.
   */
  user_id: number | null;
  subject: string;
  text: string;
  html: string;
  /** Extra headers as a JSON object of names to values. */
  headers: string;
  /** The unique part of the `Message-ID`, the same on every attempt. */
  message_id: string;
  created_at: string;
  due_at: string;
  attempts: Generated<number>;
  last_error: string | null;
  given_up_at: string | null;
}

/**
 * A device a person turned push on for (migration 018): the push service's URL for it and the keys to encrypt for it.
 */
export interface PushSubscriptionTable {
  id: Generated<number>;
  user_id: number;
  endpoint: string;
  /** The device's P-256 public key and 16-byte auth secret, base64url (RFC 8291). */
  p256dh: string;
  auth: string;
  created_at: string;
  /** The session whose token made it, which it ends with; null when kept before migration 021. */
  session_token_hash: string | null;
}

/**
 * A notification to push to one subscription (migration 018), deleted once pushed; given up, it stays for an operator
 * to look into.
 */
export interface PushOutboxTable {
  id: Generated<number>;
  subscription_id: number;
  notification_id: number;
  created_at: string;
  due_at: string;
  attempts: Generated<number>;
  last_error: string | null;
  given_up_at: string | null;
}

/** The VAPID key pair the server made when none was configured (migration 018): one row, id 1, base64url. */
export interface VapidKeyTable {
  id: number;
  public_key: string;
  private_key: string;
  created_at: string;
}

/** A forgotten-password link's token, by its SHA-256 hash, until it is used or lapses (migration 008). */
export interface PasswordResetTokenTable {
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
}

/**
 * A new email waiting to be confirmed, by the SHA-256 hash of the mailed link's token, until it is used or lapses
 * (migration 015).
 */
export interface EmailChangeTokenTable {
  token_hash: string;
  user_id: number;
  /** The address the link makes the account's. */
  email: string;
  created_at: string;
  expires_at: string;
}

/** One noise draw of a private release, kept once made (migration 010). */
export interface ReleaseNoiseTable {
  question_id: number;
  /** The other question of a relate pair; 0 for the question's breakdown. */
  other_id: number;
  cell: number;
  /** The node of the binary tree over the release's epochs (private-release/binary-tree.ts). */
  node: number;
  noise: number;
}

/** An epoch of a pair's relate release: the votes of each question it counts up to. */
export interface RelateReleaseTable {
  low_id: number;
  high_id: number;
  epoch: number;
  low_counted: number;
  high_counted: number;
  /** The noise variance of the epoch's table; null for an epoch of the binary-tree release (migration 010). */
  variance: number | null;
  /** JSON, for an epoch of a factorized stream: each table measured, `{ mask, num, den }` (migration 026). */
  tables: string | null;
}

/** An epoch of a question's breakdown release (migration 014). */
export interface BreakdownEpochTable {
  question_id: number;
  epoch: number;
  /** The seq of the last vote it counts. */
  counted: number;
  /** JSON: the ids of the countries its tables span, in order. */
  countries: string;
  /** JSON: each table measured, `{ mask, num, den }`: the attributes it keeps and its noise variance num/den. */
  tables: string;
  /** 1 for the epoch standing for the binary-tree release's count. */
  legacy: number;
  /** 1 for an epoch of the factorized stream (migration 026): its noise is decoded with the epochs before it. */
  factorized: Generated<number>;
}

/**
 * Votes of deleted accounts that released breakdown epochs counted, tied to nobody, counted as `vote_segments` counts
 * votes (migration 025).
 */
export type RemovedVoteSegmentTable = VoteSegmentTable;

/** Deleted people a relate pair's released epochs counted, tied to nobody, by their two answers (migration 025). */
export interface RemovedVotePairTable {
  low_id: number;
  high_id: number;
  low_choice: number;
  high_choice: number;
  count: number;
}

/** One noise draw of an epoch's release, kept once made (migration 014). */
export interface EpochNoiseTable {
  question_id: number;
  other_id: number;
  epoch: number;
  cell: number;
  noise: number;
}

/** A person's report of a question or a person (migration 017), open until a moderator decides on its target. */
export interface ReportTable {
  id: Generated<number>;
  reporter_id: number;
  target: ReportTarget;
  /** The question's or the person's id. */
  target_id: number;
  reason: ReportReason;
  note: string | null;
  /** 1 when the reporter's account was a day old and had answered 10 questions: only such reports hide a question. */
  counts: Flag;
  created_at: string;
  closed_at: string | null;
  /** What the decision that closed it did; null while open. */
  outcome: Exclude<ReportOutcome, 'open'> | null;
}

/** Every moderator's action, appended and never changed (migration 017). */
export interface ModerationLogTable {
  id: Generated<number>;
  at: string;
  /** Null once the moderator's account is deleted. */
  moderator_id: number | null;
  action: ModerationAction;
  target: ReportTarget;
  target_id: number;
  reason: string;
  until: string | null;
  /** 1 when the moderator decided on their own question, as nobody else could (migration 022). */
  own_question: Generated<Flag>;
}

/** How many relate pairs a question takes part in. */
export interface RelateBudgetTable {
  question_id: number;
  pairs: number;
}

export interface Database {
  countries: CountryTable;
  categories: CategoryTable;
  users: UserTable;
  sessions: SessionTable;
  questions: QuestionTable;
  question_tags: QuestionTagTable;
  question_search_documents: QuestionSearchDocumentTable;
  votes: VoteTable;
  vote_tallies: VoteTallyTable;
  vote_segments: VoteSegmentTable;
  likes: LikeTable;
  passes: PassTable;
  follows: FollowTable;
  blocks: BlockTable;
  questions_of_the_day: QuestionOfTheDayTable;
  quiz_items: QuizItemTable;
  daily_activity: DailyActivityTable;
  daily_activity_shards: DailyActivityShardTable;
  notifications: NotificationTable;
  notification_actors: NotificationActorTable;
  mail_outbox: MailOutboxTable;
  push_subscriptions: PushSubscriptionTable;
  push_outbox: PushOutboxTable;
  vapid_keys: VapidKeyTable;
  password_reset_tokens: PasswordResetTokenTable;
  email_change_tokens: EmailChangeTokenTable;
  release_noise: ReleaseNoiseTable;
  relate_releases: RelateReleaseTable;
  relate_budgets: RelateBudgetTable;
  breakdown_epochs: BreakdownEpochTable;
  epoch_noise: EpochNoiseTable;
  removed_vote_segments: RemovedVoteSegmentTable;
  removed_vote_pairs: RemovedVotePairTable;
  reports: ReportTable;
  moderation_log: ModerationLogTable;
}

export type UserRow = Selectable<UserTable>;
export type QuestionRow = Selectable<QuestionTable>;
export type NewQuestion = Insertable<QuestionTable>;
