import type { AccountExport } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import { accountLocale } from '../../i18n/locale.js';
import type { ModerationMarks } from '../../views/moderation-marks.js';
import { QUESTION_COLUMNS, tallies } from '../../views/question-cards.js';
import { isVisible } from '../../views/rules.js';
import { subscriptionsOf } from '../push/index.js';
import { buildResult, choicesOf, questionKind } from '../../views/results.js';
import { readQuestionLanguages } from './accounts.js';

/** Rows read per query, each lot written out as one piece of the download before the next is read. */
export const ROWS_PER_PIECE = 1_000;

type Item<K extends keyof AccountExport> = AccountExport[K] extends (infer T)[] ? T : never;

/**
 * The rows `read` returns after a key, a lot at a time in key order until it returns fewer than
 * a lot, each lot turned into what the download lists.
 */
async function* inLots<R, T>(
  read: (after: number) => Promise<R[]>,
  keyOf: (row: R) => number,
  present: (rows: R[]) => Promise<T[]> | T[],
): AsyncGenerator<T[]> {
  let after = 0;
  for (;;) {
    const rows = await read(after);
    if (rows.length > 0) yield await present(rows);
    if (rows.length < ROWS_PER_PIECE) return;
    after = keyOf(rows[rows.length - 1]);
  }
}

/** `,"name":[…]`, written a lot at a time. */
async function* arrayField(name: keyof AccountExport, lots: AsyncIterable<unknown[]>): AsyncGenerator<string> {
  yield `,${JSON.stringify(name)}:[`;
  let first = true;
  for await (const items of lots) {
    yield `${first ? '' : ','}${items.map((item) => JSON.stringify(item)).join(',')}`;
    first = false;
  }
  yield ']';
}

async function account(db: Db, userId: number): Promise<Pick<AccountExport, 'account' | 'settings'>> {
  const row = await db
    .selectFrom('users')
    .innerJoin('countries', 'countries.id', 'users.country_id')
    .leftJoin('categories', 'categories.id', 'users.favorite_category_id')
    .select([
      'users.id',
      'users.email',
      'users.first_name',
      'users.birthdate',
      'users.gender',
      'users.country_id',
      'countries.name as country_name',
      'users.favorite_category_id',
      'categories.name as category_name',
      'users.favorite_topic',
      'users.notification',
      'users.language',
      'users.question_languages',
      'users.created_at',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirstOrThrow();
  return {
    account: {
      id: row.id,
      email: row.email,
      first_name: row.first_name,
      birthdate: row.birthdate,
      gender: row.gender,
      country: { id: row.country_id, name: row.country_name },
      favorite_category:
        row.favorite_category_id === null || row.category_name === null
          ? null
          : { id: row.favorite_category_id, name: row.category_name },
      favorite_topic: row.favorite_topic,
      created_at: row.created_at,
    },
    settings: {
      email: row.email,
      notification: Boolean(row.notification),
      language: accountLocale(row.language),
      question_languages: readQuestionLanguages(row.question_languages),
    },
  };
}

/** The person's questions, with their tags and results, a lot at a time. */
function questions(db: Db, userId: number): AsyncGenerator<Item<'questions'>[]> {
  return inLots(
    (after) =>
      db
        .selectFrom('questions')
        .leftJoin('categories', 'categories.id', 'questions.category_id')
        .select([...QUESTION_COLUMNS, 'questions.like_count'])
        .where('questions.user_id', '=', userId)
        .where('questions.id', '>', after)
        .orderBy('questions.id')
        .limit(ROWS_PER_PIECE)
        .execute(),
    (row) => row.id,
    async (rows) => {
      const ids = rows.map((row) => row.id);
      const [votes, tags] = await Promise.all([
        tallies(db, ids),
        db
          .selectFrom('question_tags')
          .select(['question_id', 'tag'])
          .where('question_id', 'in', ids)
          .orderBy('tag')
          .execute(),
      ]);
      return rows.map((row) => {
        const kind = questionKind(row);
        return {
          id: row.id,
          type: row.type,
          title: row.title,
          language: row.language,
          category:
            row.category_id === null || row.category_name === null
              ? null
              : { id: row.category_id, name: row.category_name },
          choices: choicesOf(row, kind),
          tags: tags.filter((tag) => tag.question_id === row.id).map((tag) => tag.tag),
          published_at: row.published_at,
          like_count: row.like_count,
          result: buildResult(kind, votes.get(row.id) ?? new Map()),
        };
      });
    },
  );
}

/**
 * The person's side and the other side of each list of people: whom they follow, who follows them, whom they blocked.
 */
const SIDES = {
  following: { table: 'follows', mine: 'follower_id', theirs: 'followee_id' },
  followers: { table: 'follows', mine: 'followee_id', theirs: 'follower_id' },
  blocked: { table: 'blocks', mine: 'blocker_id', theirs: 'blocked_id' },
} as const;

/** The people on the other side of the person's follows or blocks, with since when. */
function people(db: Db, userId: number, side: keyof typeof SIDES): AsyncGenerator<Item<typeof side>[]> {
  const { table, mine, theirs } = SIDES[side];
  const { ref } = db.dynamic;
  return inLots(
    (after) =>
      db
        .selectFrom(table)
        .innerJoin('users', (join) => join.onRef('users.id', '=', ref(`${table}.${theirs}`)))
        .select((eb) => ['users.id', 'users.first_name', eb.ref(`${table}.created_at`).as('since')])
        .where(ref(`${table}.${mine}`), '=', userId)
        .where('users.id', '>', after)
        .orderBy('users.id')
        .limit(ROWS_PER_PIECE)
        .execute(),
    (row) => row.id,
    (rows) => rows.map((row) => ({ id: row.id, name: row.first_name, since: row.since })),
  );
}

/** The person's notifications, with who made each. */
function notifications(db: Db, userId: number): AsyncGenerator<Item<'notifications'>[]> {
  return inLots(
    (after) =>
      db
        .selectFrom('notifications')
        .select(['id', 'kind', 'created_at', 'read_at', 'mailed_at', 'question_id', 'count'])
        .where('user_id', '=', userId)
        .where('id', '>', after)
        .orderBy('id')
        .limit(ROWS_PER_PIECE)
        .execute(),
    (row) => row.id,
    async (rows) => {
      const actors = await db
        .selectFrom('notification_actors')
        .innerJoin('users', 'users.id', 'notification_actors.actor_id')
        .select(['notification_actors.notification_id', 'users.id', 'users.first_name'])
        .where(
          'notification_actors.notification_id',
          'in',
          rows.map((row) => row.id),
        )
        .orderBy('notification_actors.created_at')
        .execute();
      return rows.map((row) => ({
        id: row.id,
        kind: row.kind,
        created_at: row.created_at,
        read_at: row.read_at,
        mailed_at: row.mailed_at,
        question: row.question_id,
        count: row.count,
        actors: actors
          .filter((actor) => actor.notification_id === row.id)
          .map((actor) => ({ id: actor.id, name: actor.first_name })),
      }));
    },
  );
}

/** The title of a question as the person may see it, or null where moderation withholds it from them. */
type TitleShown = (row: { question_id: number; author_id: number; title: string }) => string | null;

/** The person's answers, with the questions' titles. */
function votes(db: Db, userId: number, titleShown: TitleShown): AsyncGenerator<Item<'votes'>[]> {
  return inLots(
    (after) =>
      db
        .selectFrom('votes')
        .innerJoin('questions', 'questions.id', 'votes.question_id')
        .select([
          'votes.id',
          'votes.question_id',
          'questions.title',
          'questions.user_id as author_id',
          'votes.choice',
          'votes.created_at',
        ])
        .where('votes.user_id', '=', userId)
        .where('votes.id', '>', after)
        .orderBy('votes.id')
        .limit(ROWS_PER_PIECE)
        .execute(),
    (row) => row.id,
    (rows): Item<'votes'>[] =>
      rows.map((row) => ({
        question: row.question_id,
        question_title: titleShown(row),
        choice: row.choice,
        created_at: row.created_at,
      })),
  );
}

/** The questions the person liked. */
function likes(db: Db, userId: number, titleShown: TitleShown): AsyncGenerator<Item<'likes'>[]> {
  return inLots(
    (after) =>
      db
        .selectFrom('likes')
        .innerJoin('questions', 'questions.id', 'likes.question_id')
        .select([
          'likes.id',
          'likes.question_id',
          'questions.title',
          'questions.user_id as author_id',
          'likes.created_at',
        ])
        .where('likes.user_id', '=', userId)
        .where('likes.id', '>', after)
        .orderBy('likes.id')
        .limit(ROWS_PER_PIECE)
        .execute(),
    (row) => row.id,
    (rows): Item<'likes'>[] =>
      rows.map((row) => ({ question: row.question_id, question_title: titleShown(row), created_at: row.created_at })),
  );
}

/** The questions the person hid. */
function hidden(db: Db, userId: number, titleShown: TitleShown): AsyncGenerator<Item<'hidden'>[]> {
  return inLots(
    (after) =>
      db
        .selectFrom('passes')
        .innerJoin('questions', 'questions.id', 'passes.question_id')
        .select(['passes.question_id', 'questions.title', 'questions.user_id as author_id'])
        .where('passes.user_id', '=', userId)
        .where('passes.question_id', '>', after)
        .orderBy('passes.question_id')
        .limit(ROWS_PER_PIECE)
        .execute(),
    (row) => row.question_id,
    (rows): Item<'hidden'>[] => rows.map((row) => ({ question: row.question_id, question_title: titleShown(row) })),
  );
}

/**
 * Everything stored about the person, as the text of the JSON the contract describes, in pieces:
 * each list is read a lot of rows at a time and each lot written out before the next is read, so
 * the download of someone with 100,000 votes never holds them all in memory. Read outside a
 * transaction, which would hold the database as long as a slow client takes; each lot is read
 * after the last one it continues, so none is listed twice. No hash of a password or token is
 * read at all.
 */
export async function* accountExport(
  db: Db,
  moderation: ModerationMarks,
  userId: number,
  at = new Date(),
): AsyncGenerator<string> {
  // The title of a question moderation withholds from the person is left out, as every screen leaves it out.
  const titleShown: TitleShown = (row) =>
    isVisible(moderation, { userId }, { id: row.question_id, authorId: row.author_id }) ? row.title : null;
  const { account: person, settings } = await account(db, userId);
  yield `{"exported_at":${JSON.stringify(at.toISOString())},"account":${JSON.stringify(person)},"settings":${JSON.stringify(settings)}`;
  yield* arrayField('questions', questions(db, userId));
  yield* arrayField('votes', votes(db, userId, titleShown));
  yield* arrayField('likes', likes(db, userId, titleShown));
  yield* arrayField('hidden', hidden(db, userId, titleShown));
  for (const side of ['following', 'followers', 'blocked'] as const) yield* arrayField(side, people(db, userId, side));
  yield* arrayField('notifications', notifications(db, userId));
  const sessions = await db
    .selectFrom('sessions')
    .select(['created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  yield `,"sessions":${JSON.stringify(sessions satisfies AccountExport['sessions'])}`;
  const resetLinks = await db
    .selectFrom('password_reset_tokens')
    .select(['created_at as requested_at', 'expires_at'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', at.toISOString())
    .orderBy('created_at')
    .execute();
  yield `,"password_reset_links":${JSON.stringify(resetLinks satisfies AccountExport['password_reset_links'])}`;
  // Written for this account: mail waiting for its address may have been written for the address's previous owner.
  const mail = await db
    .selectFrom('mail_outbox')
    .select(['subject', 'created_at as queued_at', 'given_up_at'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
  yield `,"mail_waiting":${JSON.stringify(mail satisfies AccountExport['mail_waiting'])}`;
  yield `,"push_subscriptions":${JSON.stringify(await subscriptionsOf(db, userId))}}`;
}
