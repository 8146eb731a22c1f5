import type { QuestionType } from '@pollscope/contract';
import { RATING_SCALE, createQuestionBodySchema } from '@pollscope/contract';
import { sql, type SqlBool } from 'kysely';
import type { z } from 'zod';
import type { Db } from '../../db/index.js';
import { QueryCompiledOnce, WritesCompiledOnce, type Write } from '../../db/compiled-query.js';
import { dialectOf, rowsFrom, type ColumnType } from '../../db/dialect.js';
import type { Change, ChangeMade } from '../../changes/change.js';
import type { LikeTable, QuestionRow, VoteSegmentTable, VoteTable, VoteTallyTable } from '../../db/schema.js';
import { BadRequestError, NotFoundError } from '../../errors.js';
import { searchDocumentOf } from '../../lib/search-text.js';
import type { QuestionKind } from '../../views/results.js';
import type { Voter } from '../../views/viewer-states.js';

type NewQuestionInput = z.output<typeof createQuestionBodySchema>;

/** The language a question is in when its asker names none: the asker's own, as a language alone (`pt-BR` → `pt`). */
async function askersLanguage(trx: Db, authorId: number): Promise<string> {
  const { language } = await trx
    .selectFrom('users')
    .select('language')
    .where('id', '=', authorId)
    .executeTakeFirstOrThrow();
  return new Intl.Locale(language).language;
}

/** Writes a new question in its language (the asker's unless named) and counts it; the change names the lists it enters. */
export async function createQuestion(
  trx: Db,
  authorId: number,
  input: NewQuestionInput,
): Promise<Change & { kind: 'asked' }> {
  if (input.category) {
    const category = await trx
      .selectFrom('categories')
      .select('id')
      .where('id', '=', input.category)
      .executeTakeFirst();
    if (!category) throw new BadRequestError('errors.unknownCategory', { category: 'errors.pickCategory' });
  }
  const language = input.language ?? (await askersLanguage(trx, authorId));
  const range = rangeOf(input.type, input.choices);
  const choiceLabels = input.type === 'MC' ? JSON.stringify(input.choices) : null;
  const { id } = await trx
    .insertInto('questions')
    .values({
      user_id: authorId,
      type: input.type,
      title: input.question,
      language,
      category_id: input.category ?? null,
      choice_labels: choiceLabels,
      range_min: range?.min ?? null,
      range_max: range?.max ?? null,
      published_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const tags = input.tags.map((tag) => tag.toLowerCase());
  if (tags.length > 0)
    await trx
      .insertInto('question_tags')
      .values(tags.map((tag) => ({ question_id: id, tag })))
      .execute();
  // Found by search from the moment it is asked: the full-text index takes it in this transaction.
  await trx
    .insertInto('question_search_documents')
    .values({ ...searchDocumentOf({ id, title: input.question, choice_labels: choiceLabels }, tags), language })
    .execute();
  // The author's count of questions and the site chart move with the change, as it commits (changes/commit.ts).
  return { kind: 'asked', questionId: id, authorId, categoryId: input.category ?? null, tags };
}

function rangeOf(type: QuestionType, choices: string[]): { min: number; max: number } | null {
  if (type === 'RS') return RATING_SCALE;
  if (type === 'N') return { min: Number(choices[0]), max: Number(choices[1]) };
  return null;
}

/** Refuses a choice the question does not offer, naming the request's `field` that holds it. */
export function checkChoice(kind: QuestionKind, choice: number, field = 'choice'): void {
  if (kind.type === 'MC') {
    if (!kind.keys.includes(choice))
      throw new BadRequestError('errors.pickChoice', {
        [field]: { id: 'errors.useKey', values: { count: kind.keys.length } },
      });
    return;
  }
  if (kind.type === 'RS' && !Number.isInteger(choice))
    throw new BadRequestError('errors.ratingWhole', { [field]: 'errors.useWholeNumber' });
  if (choice < kind.min || choice > kind.max) {
    const values = { min: kind.min, max: kind.max };
    throw new BadRequestError(
      { id: 'errors.answerBetween', values },
      { [field]: { id: 'errors.useNumberFromTo', values } },
    );
  }
}

export interface NewVote {
  questionId: number;
  voter: Voter;
  choice: number;
}

/** A vote as it commits, with its voter's state version after it. */
export type VotedChange = Change & { kind: 'voted' };
/** A vote as recordVotes writes it, before its commit stamps its voter's state version. */
export type VoteMade = ChangeMade & { kind: 'voted' };

/** Counts by key, each key's count the number of items that share it. */
export function countsBy<T, K extends Record<string, string | number>>(
  items: readonly T[],
  keyOf: (item: T) => K,
): (K & { count: number })[] {
  const rows = new Map<string, K & { count: number }>();
  for (const item of items) {
    const key = keyOf(item);
    const id = Object.values(key).join('|');
    const row = rows.get(id);
    if (row) row.count += 1;
    else rows.set(id, { ...key, count: 1 });
  }
  // One order for every writer: PostgreSQL locks the rows of a statement in the order it meets them.
  return [...rows.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, row]) => row);
}

/**
 * `table.count + excluded.count`: the stored row's count is named with its table (in PostgreSQL a bare `count` is
 * ambiguous).
 */
const addExcluded = (table: string) => sql<number>`${sql.ref(`${table}.count`)} + excluded.count`;

/** How much a question's count of votes, or of likes, moves (JSON, rowsFrom). */
type CountMove = { question_id: number; count: number };
const MOVED_COLUMNS = { question_id: 'integer', count: 'integer' } as const;

/**
 * The rows given as one JSON parameter (rowsFrom), to insert from. `where true` lets SQLite read an
 * upsert after a select from a subquery.
 */
function givenRows<Row extends object>(db: Db, json: unknown, columns: { [C in keyof Row & string]: ColumnType }) {
  return db
    .selectFrom(rowsFrom<Row, 'given'>(dialectOf(db), json, columns, 'given'))
    .selectAll()
    .where(sql<SqlBool>`true`);
}

/**
 * The statement moving the questions' counts, up (sign 1) or down, each row by its own amount (JSON,
 * rowsFrom, in the order of the questions' ids, which is the order PostgreSQL meets and locks their
 * rows in, as other writes of them do): one text whatever the batch, compiled once.
 */
const movingVoteCounts = (sign: 1 | -1) =>
  new QueryCompiledOnce(['amounts'] as [unknown], (db, amounts) =>
    db
      .updateTable('questions')
      .from(rowsFrom<CountMove, 'given'>(dialectOf(db), amounts, MOVED_COLUMNS, 'given'))
      .set(
        sign > 0
          ? { vote_count: sql`questions.vote_count + given.count` }
          : {
              vote_count: sql`questions.vote_count - given.count`,
              votes_removed: sql`questions.votes_removed + given.count`,
            },
      )
      .whereRef('questions.id', '=', 'given.question_id')
      .returning(['questions.id', 'questions.vote_count', 'questions.votes_removed']),
  );
const votesCounted = { [1]: movingVoteCounts(1), [-1]: movingVoteCounts(-1) };

/**
 * Moves the questions' vote counts by the votes of each in `perQuestion`: up for votes cast, down
 * for votes removed, which `votes_removed` then counts so that seqs go on past them. Returns each
 * question's counts after.
 */
export async function moveVoteCounts(
  trx: Db,
  perQuestion: readonly { question_id: number; count: number }[],
  sign: 1 | -1,
) {
  const inOrder = [...perQuestion].sort((a, b) => a.question_id - b.question_id);
  return votesCounted[sign].run(trx, JSON.stringify(inOrder));
}

/** What the tallies count a vote by: its question and choice, and its voter's group when it was cast. */
export type TalliedVote = Pick<NewVote, 'questionId' | 'choice'> & {
  voter: Pick<Voter, 'country_id' | 'gender' | 'birth_year'>;
};

/** The rows the writes below are given: a tally's by how much its count moves, a vote's as it is stored. */
type VoteRow = Omit<VoteTable, 'id'>;

const TALLY_COLUMNS = { question_id: 'integer', choice: 'double precision', count: 'integer' } as const;
const SEGMENT_COLUMNS = {
  question_id: 'integer',
  country_id: 'integer',
  gender: 'text',
  birth_year: 'integer',
  choice: 'double precision',
  count: 'integer',
} as const;
const VOTE_COLUMNS = {
  question_id: 'integer',
  user_id: 'integer',
  choice: 'double precision',
  created_at: 'text',
  seq: 'integer',
  gender: 'text',
  birth_year: 'integer',
  country_id: 'integer',
} as const;

/**
 * The writes that move the tallies per choice and per group by the rows given (JSON, rowsFrom), in
 * their order.
 */
function tallyWrites(db: Db, tallies: unknown, segments: unknown): Write[] {
  return [
    db
      .insertInto('vote_tallies')
      .columns(['question_id', 'choice', 'count'])
      .expression(givenRows<VoteTallyTable>(db, tallies, TALLY_COLUMNS))
      .onConflict((conflict) =>
        conflict.columns(['question_id', 'choice']).doUpdateSet({ count: addExcluded('vote_tallies') }),
      ),
    db
      .insertInto('vote_segments')
      .columns(['question_id', 'country_id', 'gender', 'birth_year', 'choice', 'count'])
      .expression(givenRows<VoteSegmentTable>(db, segments, SEGMENT_COLUMNS))
      .onConflict((conflict) =>
        conflict
          .columns(['question_id', 'country_id', 'gender', 'birth_year', 'choice'])
          .doUpdateSet({ count: addExcluded('vote_segments') }),
      ),
  ];
}

/** The tallies' writes, and the votes' with them: each one statement text whatever the batch, compiled once. */
const tallies = new WritesCompiledOnce(['tallies', 'segments'] as [unknown, unknown], tallyWrites);
const votesAndTallies = new WritesCompiledOnce(
  ['votes', 'tallies', 'segments'] as [unknown, unknown, unknown],
  (db, votes, tallyRows, segmentRows) => [
    db
      .insertInto('votes')
      .columns(Object.keys(VOTE_COLUMNS) as (keyof VoteRow)[])
      .expression(givenRows<VoteRow>(db, votes, VOTE_COLUMNS)),
    ...tallyWrites(db, tallyRows, segmentRows),
  ],
);

/** The tallies' rows moved by the votes (`sign` 1 adds them, -1 takes them away), as the JSON the writes take. */
function tallyRowsOf(votes: readonly TalliedVote[], sign: 1 | -1): [tallies: string, segments: string] {
  const signed = <R extends { count: number }>(rows: R[]) => rows.map((row) => ({ ...row, count: sign * row.count }));
  return [
    JSON.stringify(signed(countsBy(votes, (vote) => ({ question_id: vote.questionId, choice: vote.choice })))),
    JSON.stringify(
      signed(
        countsBy(votes, ({ questionId, voter, choice }) => ({
          question_id: questionId,
          country_id: voter.country_id,
          gender: voter.gender,
          birth_year: voter.birth_year,
          choice,
        })),
      ),
    ),
  ];
}

/**
 * Adds the votes to (`sign` 1), or takes them away from (-1), the tallies per choice and per voter
 * group and country, in two writes however many votes there are. A row taken down to no vote
 * goes: a breakdown must offer no country or age that no voter has any more.
 */
export async function countInTallies(trx: Db, votes: readonly TalliedVote[], sign: 1 | -1): Promise<void> {
  await tallies.run(trx, ...tallyRowsOf(votes, sign));
  if (sign > 0) return;
  const questionIds = [...new Set(votes.map((vote) => vote.questionId))];
  await trx.deleteFrom('vote_tallies').where('question_id', 'in', questionIds).where('count', '<=', 0).execute();
  await trx.deleteFrom('vote_segments').where('question_id', 'in', questionIds).where('count', '<=', 0).execute();
}

/**
 * Records votes and, in the same transaction, every tally that reads them: per choice, per
 * voter group and country (for breakdown) and the questions' counts, in a fixed number of
 * statements however many votes there are; the voters' counts and the site chart's move with the
 * changes as they commit (changes/commit.ts). A second vote by the same user fails on the unique
 * index, and the transaction it throws out of changes nothing.
 */
export async function recordVotes(trx: Db, votes: readonly NewVote[]): Promise<VoteMade[]> {
  if (votes.length === 0) return [];
  // Counting the votes first locks the questions' rows, so each vote's place in its question's
  // order (seq) is handed out in the order the votes commit: relate reads the votes after a
  // place it has counted up to, and must not miss one committed late.
  const perQuestion = countsBy(votes, (vote) => ({ question_id: vote.questionId }));
  const counted = await moveVoteCounts(trx, perQuestion, 1);
  const votesInBatch = new Map(perQuestion.map((row) => [row.question_id, row.count]));
  const nextSeq = new Map(
    counted.map((row) => [row.id, row.vote_count + row.votes_removed - votesInBatch.get(row.id)! + 1]),
  );
  const votesRemoved = new Map(counted.map((row) => [row.id, row.votes_removed]));
  const createdAt = new Date().toISOString();
  const voteRows = votes.map((vote) => {
    const seq = nextSeq.get(vote.questionId);
    if (seq === undefined) throw new NotFoundError('errors.noSuchQuestion');
    nextSeq.set(vote.questionId, seq + 1);
    const { voter } = vote;
    // The vote keeps who voted as they were then: breakdown counts it there even after they move.
    return {
      question_id: vote.questionId,
      user_id: voter.id,
      choice: vote.choice,
      created_at: createdAt,
      seq,
      gender: voter.gender,
      birth_year: voter.birth_year,
      country_id: voter.country_id,
    };
  });
  // The votes and their tallies in one statement on PostgreSQL, not waited for: none needs what another returns, and
  // the rows they lock belong to the questions whose rows moveVoteCounts has locked, so no other batch waits on them in
  // another order. A second vote of a voter fails here on SQLite, and with the commit on PostgreSQL (writers.ts).
  await votesAndTallies.run(trx, JSON.stringify(voteRows), ...tallyRowsOf(votes, 1));
  return votes.map(({ questionId, voter, choice }, index) => {
    const { seq } = voteRows[index];
    return { kind: 'voted', questionId, voterId: voter.id, choice, seq, count: seq - votesRemoved.get(questionId)! };
  });
}

/** Records one vote and its tallies (recordVotes). */
export async function recordVote(
  trx: Db,
  question: Pick<QuestionRow, 'id'>,
  voter: Voter,
  choice: number,
): Promise<VoteMade> {
  const [voted] = await recordVotes(trx, [{ questionId: question.id, voter, choice }]);
  return voted;
}

/** A person's like (or unlike) of a question. */
export interface NewLike {
  userId: number;
  questionId: number;
  liked: boolean;
}

const likeKey = (like: Pick<NewLike, 'userId' | 'questionId'>) => `${like.questionId}:${like.userId}`;

const LIKE_COLUMNS = { question_id: 'integer', user_id: 'integer', created_at: 'text' } as const;

/** Likes given (JSON, rowsFrom), those already there left as they are; returns the ones added. One text, compiled once. */
const likesAdded = new QueryCompiledOnce(['likes'] as [unknown], (db, likes) =>
  db
    .insertInto('likes')
    .columns(['question_id', 'user_id', 'created_at'])
    .expression(givenRows<Omit<LikeTable, 'id'>>(db, likes, LIKE_COLUMNS))
    .onConflict((conflict) => conflict.columns(['question_id', 'user_id']).doNothing())
    .returning(['question_id', 'user_id']),
);

/**
 * Moves the questions' like counts, each by its own amount (JSON, in the order of their ids, the
 * order their rows are locked in, as the vote counts'), not waited for. One text, compiled once.
 */
const likeCountsMoved = new WritesCompiledOnce(['amounts'] as [unknown], (db, amounts) => [
  db
    .updateTable('questions')
    .from(rowsFrom<CountMove, 'given'>(dialectOf(db), amounts, MOVED_COLUMNS, 'given'))
    .set({ like_count: sql`questions.like_count + given.count` })
    .whereRef('questions.id', '=', 'given.question_id'),
]);

/** How much each question's like count moves by the likes (up for a like, down for an unlike), for those it moves. */
function likeCountDeltas(likes: readonly NewLike[]): [questionId: number, delta: number][] {
  const deltas = new Map<number, number>();
  for (const like of likes) deltas.set(like.questionId, (deltas.get(like.questionId) ?? 0) + (like.liked ? 1 : -1));
  return [...deltas].filter(([, delta]) => delta !== 0);
}

/**
 * Likes and unlikes, many people's at once (a batch of concurrent requests): each person's last
 * word on a question stands, as if they had come one after another. The counts move only by what
 * changed, once per question and per person, so repeating a call is harmless (no change).
 */
export async function setLikes(trx: Db, likes: readonly NewLike[]): Promise<ChangeMade[]> {
  const last = new Map<string, NewLike>();
  for (const like of likes) {
    last.delete(likeKey(like));
    last.set(likeKey(like), like);
  }
  const wanted = [...last.values()];
  const toLike = wanted.filter((like) => like.liked);
  const toUnlike = wanted.filter((like) => !like.liked);
  const createdAt = new Date().toISOString();
  const inserted =
    toLike.length === 0
      ? []
      : await likesAdded.run(
          trx,
          JSON.stringify(
            toLike.map((like) => ({ question_id: like.questionId, user_id: like.userId, created_at: createdAt })),
          ),
        );
  // Pairs as alternatives rather than `(a, b) in (…)`: SQLite takes a list of row values only from a subquery.
  const deleted =
    toUnlike.length === 0
      ? []
      : await trx
          .deleteFrom('likes')
          .where((eb) =>
            eb.or(
              toUnlike.map((like) =>
                eb.and([eb('question_id', '=', like.questionId), eb('user_id', '=', like.userId)]),
              ),
            ),
          )
          .returning(['question_id', 'user_id'])
          .execute();
  const moved = new Set(
    [...inserted, ...deleted].map((row) => likeKey({ questionId: row.question_id, userId: row.user_id })),
  );
  const changed = wanted.filter((like) => moved.has(likeKey(like)));
  // The likers' own counts and the site chart move with the changes, as they commit (changes/commit.ts).
  const deltas = likeCountDeltas(changed);
  if (deltas.length > 0)
    await likeCountsMoved.run(
      trx,
      JSON.stringify(
        deltas.sort(([a], [b]) => a - b).map(([questionId, delta]) => ({ question_id: questionId, count: delta })),
      ),
    );
  return changed.map(({ liked, questionId, userId }) => ({ kind: liked ? 'liked' : 'unliked', questionId, userId }));
}

/** Hides or shows again a question; null when nothing changed, so repeating a call is harmless. */
export async function setPassed(
  trx: Db,
  userId: number,
  questionId: number,
  passed: boolean,
): Promise<ChangeMade | null> {
  const changed = passed
    ? await trx
        .insertInto('passes')
        .values({ user_id: userId, question_id: questionId })
        .onConflict((conflict) => conflict.columns(['user_id', 'question_id']).doNothing())
        .executeTakeFirst()
        .then((result) => Number(result.numInsertedOrUpdatedRows ?? 0n) > 0)
    : await trx
        .deleteFrom('passes')
        .where('user_id', '=', userId)
        .where('question_id', '=', questionId)
        .executeTakeFirst()
        .then((result) => Number(result.numDeletedRows) > 0);
  return changed ? { kind: passed ? 'passed' : 'unpassed', questionId, userId } : null;
}
