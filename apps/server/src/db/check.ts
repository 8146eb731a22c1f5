import { sql, type Expression } from 'kysely';
import type { Db } from './index.js';

/** One stored count that differs from the count of the rows it stands for. */
export interface TallyMismatch {
  /** The stored count, e.g. `vote_tallies.count` or `users.like_count`. */
  tally: string;
  key: Record<string, string | number>;
  stored: number;
  counted: number;
}

interface TallyCheck {
  tally: string;
  keys: string[];
  /** Rows of the key columns and `count` as stored. */
  stored: Expression<unknown>;
  /** Rows of the key columns and `count` as counted from the rows the tally stands for. */
  counted: Expression<unknown>;
}

/** At most this many mismatches are listed per tally: enough to see what went wrong. */
const LISTED_PER_TALLY = 100;

function tallyChecks(db: Db): TallyCheck[] {
  const votesPerChoice = db
    .selectFrom('votes')
    .select(['question_id', 'choice', (eb) => eb.fn.countAll().as('count')])
    .groupBy(['question_id', 'choice']);
  return [
    {
      tally: 'vote_tallies.count',
      keys: ['question_id', 'choice'],
      stored: db.selectFrom('vote_tallies').select(['question_id', 'choice', 'count']),
      counted: votesPerChoice,
    },
    // A vote records its voter's group as it was when cast, and a voter may move country or
    // correct a birth date later: the segments count the votes by the votes' own columns.
    {
      tally: 'vote_segments.count',
      keys: ['question_id', 'country_id', 'gender', 'birth_year', 'choice'],
      stored: db
        .selectFrom('vote_segments')
        .select(['question_id', 'country_id', 'gender', 'birth_year', 'choice', 'count']),
      counted: db
        .selectFrom('votes')
        .select(['question_id', 'country_id', 'gender', 'birth_year', 'choice', (eb) => eb.fn.countAll().as('count')])
        .groupBy(['question_id', 'country_id', 'gender', 'birth_year', 'choice']),
    },
    {
      tally: 'questions.vote_count',
      keys: ['id'],
      stored: db.selectFrom('questions').select(['id', 'vote_count as count']),
      counted: db
        .selectFrom('votes')
        .select(['question_id as id', (eb) => eb.fn.countAll().as('count')])
        .groupBy('question_id'),
    },
    {
      tally: 'questions.like_count',
      keys: ['id'],
      stored: db.selectFrom('questions').select(['id', 'like_count as count']),
      counted: db
        .selectFrom('likes')
        .select(['question_id as id', (eb) => eb.fn.countAll().as('count')])
        .groupBy('question_id'),
    },
    {
      tally: 'users.answer_count',
      keys: ['id'],
      stored: db.selectFrom('users').select(['id', 'answer_count as count']),
      counted: db
        .selectFrom('votes')
        .select(['user_id as id', (eb) => eb.fn.countAll().as('count')])
        .groupBy('user_id'),
    },
    {
      tally: 'users.question_count',
      keys: ['id'],
      stored: db.selectFrom('users').select(['id', 'question_count as count']),
      counted: db
        .selectFrom('questions')
        .select(['user_id as id', (eb) => eb.fn.countAll().as('count')])
        .groupBy('user_id'),
    },
    {
      tally: 'users.like_count',
      keys: ['id'],
      stored: db.selectFrom('users').select(['id', 'like_count as count']),
      counted: db
        .selectFrom('likes')
        .select(['user_id as id', (eb) => eb.fn.countAll().as('count')])
        .groupBy('user_id'),
    },
  ];
}

/**
 * The keys where stored and counted differ, a key missing on one side counting as 0. Both sides
 * go into one grouping rather than a full join, which SQLite runs as a loop over one side per row
 * of the other: hours for a million users.
 */
async function mismatchesOf(db: Db, check: TallyCheck): Promise<TallyMismatch[]> {
  const keyColumns = sql.join(check.keys.map((key) => sql.ref(key)));
  const { rows } = await sql<Record<string, string | number>>`
    select ${keyColumns}, sum(stored) as stored, sum(counted) as counted
    from (
      select ${keyColumns}, s.count as stored, 0 as counted from (${check.stored}) as s
      union all
      select ${keyColumns}, 0 as stored, c.count as counted from (${check.counted}) as c
    ) as both_sides
    group by ${keyColumns}
    having sum(stored) <> sum(counted)
    limit ${LISTED_PER_TALLY}`.execute(db);
  return rows.map(({ stored, counted, ...key }) => ({
    tally: check.tally,
    key,
    stored: Number(stored),
    counted: Number(counted),
  }));
}

/**
 * Compares every count the app keeps beside the rows (vote tallies and segments, the questions'
 * vote and like counts, the users' question, answer and like counts) with the rows themselves.
 * An empty list means every tally is right.
 */
export async function findTallyMismatches(db: Db): Promise<TallyMismatch[]> {
  const found: TallyMismatch[] = [];
  for (const check of tallyChecks(db)) found.push(...(await mismatchesOf(db, check)));
  return found;
}

export function describeMismatch({ tally, key, stored, counted }: TallyMismatch): string {
  const where = Object.entries(key)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  return `${tally} ${where}: stored ${stored}, counted ${counted}`;
}
