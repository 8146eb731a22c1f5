import { sql } from 'kysely';
import type { ChangeKind, ChangeMade } from '../../changes/change.js';
import type { Db } from '../../db/index.js';
import { WritesCompiledOnce } from '../../db/compiled-query.js';

export type ActivityKind = 'answers' | 'questions' | 'users' | 'likes';

export function utcDay(date = new Date()): string {
  return date.toISOString().slice(0, 10);
}

/**
 * Rows each day's counts are spread over (migration 019, `daily_activity_shards`). In PostgreSQL a transaction holds
 * the
 * lock of a row it updated until it commits, so writes counting on one row take turns: pgbench
 * measured 2,700 commits/s on one row against 13,400 spread over 100.
 */
const ACTIVITY_SHARDS = 16;

const KINDS = ['answers', 'questions', 'users', 'likes'] as const satisfies readonly ActivityKind[];

/**
 * The row of the day each transaction counts on: picked at random at its first count and kept,
 * so that a transaction counting several things locks one row, and two of them never wait on each
 * other for rows each holds.
 */
const shardOfTransaction = new WeakMap<Db, number>();

function shardFor(trx: Db): number {
  let shard = shardOfTransaction.get(trx);
  if (shard === undefined) {
    shard = Math.floor(Math.random() * ACTIVITY_SHARDS);
    if (trx.isTransaction) shardOfTransaction.set(trx, shard);
  }
  return shard;
}

/** Counts one more (or, with -1, one less) of something on one of today's rows of the site chart. */
export async function countActivity(trx: Db, kind: ActivityKind, delta = 1): Promise<void> {
  await countOnChart(trx, { [kind]: delta });
}

/**
 * Adds to one of a day's rows what each kind moved by: one statement text whatever moved, compiled once, as every write
 * counts here.
 */
const addToChart = new WritesCompiledOnce(
  ['day', 'shard', 'answers', 'questions', 'users', 'likes'] as [unknown, unknown, unknown, unknown, unknown, unknown],
  (db, day, shard, answers, questions, users, likes) => [
    db
      .insertInto('daily_activity_shards')
      .values({ day, shard, answers, questions, users, likes } as never)
      .onConflict((conflict) =>
        conflict
          .columns(['day', 'shard'])
          .doUpdateSet(
            Object.fromEntries(
              KINDS.map((kind) => [kind, sql`daily_activity_shards.${sql.ref(kind)} + excluded.${sql.ref(kind)}`]),
            ),
          ),
      ),
  ],
);

/** Counts what each kind moved by on one of today's rows, in one statement. */
async function countOnChart(trx: Db, deltas: Partial<Record<ActivityKind, number>>): Promise<void> {
  if (!KINDS.some((kind) => (deltas[kind] ?? 0) !== 0)) return;
  const { answers = 0, questions = 0, users = 0, likes = 0 } = deltas;
  await addToChart.run(trx, utcDay(), shardFor(trx), answers, questions, users, likes);
}

/** What each kind of change counts on the site chart: null where it counts nothing there. */
const COUNTED: { readonly [K in ChangeKind]: { readonly kind: 'answers' | 'questions' | 'likes'; by: 1 | -1 } | null } =
  {
    voted: { kind: 'answers', by: 1 },
    asked: { kind: 'questions', by: 1 },
    liked: { kind: 'likes', by: 1 },
    unliked: { kind: 'likes', by: -1 },
    passed: null,
    unpassed: null,
    renamed: null,
    profileChanged: null,
    followed: null,
    unfollowed: null,
    blocked: null,
    unblocked: null,
    sessionEnded: null,
    passwordChanged: null,
    notified: null,
    notificationsRead: null,
    accountDeleted: null,
    questionModerated: null,
    userSuspended: null,
    userUnsuspended: null,
    moderatorActed: null,
    reported: null,
  };

/**
 * Counts on the site chart what the changes of a write did (answers, likes taken back or given,
 * questions asked): the one place that knows which change counts there. Every write counts there
 * last, after the rows of the people it concerns, so that writes lock rows in one order.
 */
export async function countActivityOf(trx: Db, changes: readonly ChangeMade[]): Promise<void> {
  const deltas = { answers: 0, questions: 0, likes: 0 };
  for (const change of changes) {
    const counted = COUNTED[change.kind];
    if (counted) deltas[counted.kind] += counted.by;
  }
  await countOnChart(trx, deltas);
}

/**
 * What was done each day from `firstDay` on that had anything: the sums of the day's rows, its
 * shards and its one row of `daily_activity` (what was counted before migration 019, and by an
 * instance of that version still running beside a new one).
 */
export async function activityByDay(db: Db, firstDay = ''): Promise<ActivityByDay> {
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('daily_activity')
        .select(['day', ...KINDS])
        .where('day', '>=', firstDay)
        .unionAll(
          eb
            .selectFrom('daily_activity_shards')
            .select(['day', ...KINDS])
            .where('day', '>=', firstDay),
        )
        .as('activity'),
    )
    .select((eb) => ['day', ...KINDS.map((kind) => eb.fn.sum<number>(kind).as(kind))])
    .groupBy('day')
    .orderBy('day')
    .execute();
  return new Map(
    rows.map(({ day, ...counts }) => [
      day,
      Object.fromEntries(KINDS.map((kind) => [kind, Number(counts[kind])])) as Record<ActivityKind, number>,
    ]),
  );
}

/** What is taken away from each day's row: so many answers, questions, people and likes. */
export type ActivityByDay = Map<string, Record<ActivityKind, number>>;

/** Counts one more of `kind` on the day of `at` (an ISO time) in `byDay`. */
export function addActivity(byDay: ActivityByDay, kind: ActivityKind, at: string, count = 1): void {
  const day = at.slice(0, 10);
  let row = byDay.get(day);
  if (!row) byDay.set(day, (row = { answers: 0, questions: 0, users: 0, likes: 0 }));
  row[kind] += count;
}

/** Rows of days written per statement: six parameters each. */
const DAYS_PER_STATEMENT = 500;

/**
 * Takes away from the site chart what `byDay` says was done each day and is gone: from one row of
 * each day, whichever, as a day's counts are the sums of its rows. Rows are locked in day order.
 */
export async function uncountActivity(trx: Db, byDay: ActivityByDay): Promise<void> {
  const shard = shardFor(trx);
  const rows = [...byDay.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([day, row]) => ({
      day,
      shard,
      answers: -row.answers,
      questions: -row.questions,
      users: -row.users,
      likes: -row.likes,
    }));
  for (let start = 0; start < rows.length; start += DAYS_PER_STATEMENT) {
    await trx
      .insertInto('daily_activity_shards')
      .values(rows.slice(start, start + DAYS_PER_STATEMENT))
      .onConflict((conflict) =>
        conflict.columns(['day', 'shard']).doUpdateSet({
          answers: sql`daily_activity_shards.answers + excluded.answers`,
          questions: sql`daily_activity_shards.questions + excluded.questions`,
          users: sql`daily_activity_shards.users + excluded.users`,
          likes: sql`daily_activity_shards.likes + excluded.likes`,
        }),
      )
      .execute();
  }
}
