import { sql } from 'kysely';
import { QueryCompiledOnce } from '../db/compiled-query.js';
import { dialectOf, rowsFrom } from '../db/dialect.js';
import { sendWithoutWaiting } from '../db/pipelining.js';
import type { Db } from '../db/index.js';
import type { Change, ChangeMade } from './change.js';

/** The counts a person's row keeps of what they did, shown on their profile. */
type OwnCount = 'answer_count' | 'like_count' | 'question_count';

/**
 * The change with the state version it moves each person to, asked of `next` for each person
 * whose own state (views/viewer-states.ts) it moves, in order; and what it counts of what each
 * person did (`count`): the one place that knows which change moves whose row.
 */
function stamped(
  change: ChangeMade,
  next: (userId: number) => number,
  count: (userId: number, column: OwnCount, by: number) => void = () => {},
): Change {
  switch (change.kind) {
    case 'voted':
      count(change.voterId, 'answer_count', 1);
      return { ...change, version: next(change.voterId) };
    case 'liked':
    case 'unliked':
      count(change.userId, 'like_count', change.kind === 'liked' ? 1 : -1);
      return { ...change, version: next(change.userId) };
    case 'passed':
    case 'unpassed':
      return { ...change, version: next(change.userId) };
    case 'followed':
    case 'unfollowed':
      next(change.followerId);
      return change;
    case 'blocked':
    case 'unblocked':
      // Both see the other's questions, and what the other did, differently from now on.
      next(change.blockerId);
      next(change.blockedId);
      return change;
    case 'profileChanged':
      // The voter's group and favourites moved: what each instance keeps of the person is read again.
      next(change.userId);
      return change;
    case 'asked':
      count(change.authorId, 'question_count', 1);
      return change;
    case 'renamed':
    case 'sessionEnded':
    case 'passwordChanged':
    case 'notified':
    case 'notificationsRead':
    case 'accountDeleted':
    case 'questionModerated':
    case 'userSuspended':
    case 'userUnsuspended':
    case 'reported':
      return change;
    default: {
      const unhandled: never = change;
      throw new Error(`A change of an unknown kind: ${JSON.stringify(unhandled)}`);
    }
  }
}

/** How a person's row moves: steps of its state version, and its own counts. */
type RowMove = { state_version: number } & Partial<Record<OwnCount, number>>;

const MOVED_COLUMNS = {
  id: 'integer',
  state_version: 'integer',
  answer_count: 'integer',
  like_count: 'integer',
  question_count: 'integer',
} as const;

/**
 * Moves the rows of the people given, each by its own move (JSON, rowsFrom, in the order of their
 * ids, which is the order PostgreSQL meets and locks their rows in): one statement text however
 * many people and moves, compiled once.
 */
const peopleRowsMoved = new QueryCompiledOnce(['moves'] as [unknown], (db, moves) => {
  const by = (column: keyof RowMove) => sql<number>`${sql.ref(`users.${column}`)} + ${sql.ref(`given.${column}`)}`;
  return db
    .updateTable('users')
    .from(rowsFrom<Required<RowMove> & { id: number }, 'given'>(dialectOf(db), moves, MOVED_COLUMNS, 'given'))
    .set({
      state_version: by('state_version'),
      answer_count: by('answer_count'),
      like_count: by('like_count'),
      question_count: by('question_count'),
    })
    .whereRef('users.id', '=', 'given.id')
    .returning(['users.id', 'users.state_version']);
});

/**
 * Moves the row of each person the write's changes concern, in the write's transaction: its
 * `state_version` one step per change that moves their state, and the counts of what they did
 * (answers, likes, questions asked), in one statement however many changes there are (a batch of
 * votes: every voter one step and one answer). The one place a state version or
 * one of these counts moves as people act, so that a person's row gets one new version a
 * transaction: a second update of a row in one transaction also has PostgreSQL check its foreign
 * keys again. The statements are sent at once, and the changes come stamped with the versions
 * they moved to once they are answered, which the transaction's commit need not wait for
 * (db/pipelining.ts, sendWithoutWaiting).
 */
export async function movePeopleRows(trx: Db, made: readonly ChangeMade[]): Promise<{ stamped: Promise<Change[]> }> {
  const rows = new Map<number, RowMove>();
  const rowOf = (userId: number) => {
    let row = rows.get(userId);
    if (!row) rows.set(userId, (row = { state_version: 0 }));
    return row;
  };
  for (const change of made) {
    stamped(
      change,
      (userId) => {
        rowOf(userId).state_version += 1;
        return 0;
      },
      (userId, column, by) => {
        const row = rowOf(userId);
        row[column] = (row[column] ?? 0) + by;
      },
    );
  }
  const { rows: moved } =
    rows.size === 0
      ? { rows: Promise.resolve([]) }
      : await sendWithoutWaiting(
          trx,
          peopleRowsMoved.bound(
            trx,
            JSON.stringify(
              [...rows]
                .sort(([a], [b]) => a - b)
                .map(([id, move]) => ({ answer_count: 0, like_count: 0, question_count: 0, ...move, id })),
            ),
          ),
        );
  const stampedChanges = moved.then((answered) => {
    /** Each person's version before these changes, then after each change stamped so far. */
    const versions = new Map<number, number>();
    for (const person of answered) versions.set(person.id, person.state_version - rows.get(person.id)!.state_version);
    return made.map((change) =>
      stamped(change, (userId) => {
        const version = (versions.get(userId) ?? 0) + 1;
        versions.set(userId, version);
        return version;
      }),
    );
  });
  // A failed statement fails the transaction's next one, which reports it.
  stampedChanges.catch(() => {});
  return { stamped: stampedChanges };
}
