import { sql } from 'kysely';
import { QueryCompiledOnce } from '../db/compiled-query.js';
import { dialectOf, rowsFrom } from '../db/dialect.js';
import { sendWithoutWaiting } from '../db/pipelining.js';
import type { Db } from '../db/index.js';
import type { Change, ChangeKind, ChangeMade, ChangeMadeOf, ChangeOf } from './change.js';

/** The counts a person's row keeps of what they did, shown on their profile. */
type OwnCount = 'answer_count' | 'like_count' | 'question_count';

/** How a person's row moves: steps of its state version, and its own counts. */
type RowMove = { state_version: number } & Partial<Record<OwnCount, number>>;

/** The moves of the rows of the people a write's changes concern, gathered as its changes are gone through. */
class RowMoves {
  readonly rows = new Map<number, RowMove>();

  private rowOf(userId: number): RowMove {
    let row = this.rows.get(userId);
    if (!row) this.rows.set(userId, (row = { state_version: 0 }));
    return row;
  }

  /** Moves the person's state version one step; returns how many steps it has moved so far. */
  step(userId: number): number {
    return (this.rowOf(userId).state_version += 1);
  }

  count(userId: number, column: OwnCount, by: number): void {
    const row = this.rowOf(userId);
    row[column] = (row[column] ?? 0) + by;
  }
}

/**
 * Which change moves whose row, the one place that knows: each person whose own state (views/viewer-states.ts) it moves
 * a step, and what it counts of what each did. A change that carries the state version it moved its person to returns
 * that person, whose step it is stamped with; null where a change moves no row.
 */
const ROWS_MOVED: {
  readonly [K in ChangeKind]:
    ((change: ChangeMadeOf<K>, moves: RowMoves) => ChangeOf<K> extends { version: number } ? number : void) | null;
} = {
  voted: (change, moves) => {
    moves.count(change.voterId, 'answer_count', 1);
    return change.voterId;
  },
  liked: (change, moves) => {
    moves.count(change.userId, 'like_count', 1);
    return change.userId;
  },
  unliked: (change, moves) => {
    moves.count(change.userId, 'like_count', -1);
    return change.userId;
  },
  passed: (change) => change.userId,
  unpassed: (change) => change.userId,
  followed: (change, moves) => void moves.step(change.followerId),
  unfollowed: (change, moves) => void moves.step(change.followerId),
  // Both see the other's questions, and what the other did, differently from now on.
  blocked: (change, moves) => void (moves.step(change.blockerId), moves.step(change.blockedId)),
  unblocked: (change, moves) => void (moves.step(change.blockerId), moves.step(change.blockedId)),
  // The voter's group and favourites moved: what each instance keeps of the person is read again.
  profileChanged: (change, moves) => void moves.step(change.userId),
  asked: (change, moves) => moves.count(change.authorId, 'question_count', 1),
  renamed: null,
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

/** The rows of the people a write's changes concern, sent: `stamped` reads their answer. */
export interface PeopleRowsMoved {
  /**
   * The write's changes, stamped with the state versions they moved their people to, in their order: read once the
   * transaction committed, whose commit waited for the statement that moved the rows.
   */
  stamped(): Promise<Change[]>;
}

/**
 * Moves the row of each person the write's changes concern, in the write's transaction: its
 * `state_version` one step per change that moves their state, and the counts of what they did
 * (answers, likes, questions asked), in one statement however many changes there are (a batch of
 * votes: every voter one step and one answer). The one place a state version or
 * one of these counts moves as people act, so that a person's row gets one new version a
 * transaction: a second update of a row in one transaction also has PostgreSQL check its foreign
 * keys again. The statement is sent without waiting for its answer (db/pipelining.ts, sendWithoutWaiting), so that it costs no
 * round trip of its own: the versions it moved each person to are read from the rows it returns.
 */
export async function movePeopleRows(trx: Db, made: readonly ChangeMade[]): Promise<PeopleRowsMoved> {
  const moves = new RowMoves();
  /** For each change that carries a version: its person, and the step of theirs it moved them to. */
  const people: (number | undefined)[] = [];
  const steps: number[] = [];
  made.forEach((change, index) => {
    const person = (ROWS_MOVED[change.kind] as ((change: ChangeMade, moves: RowMoves) => number | void) | null)?.(
      change,
      moves,
    );
    if (typeof person !== 'number') return;
    people[index] = person;
    steps[index] = moves.step(person);
  });
  const { rows } = moves;
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
  return {
    async stamped() {
      /** Each person's version before these changes: the version they moved to, less the steps they moved. */
      const before = new Map<number, number>();
      for (const person of await moved)
        before.set(person.id, person.state_version - rows.get(person.id)!.state_version);
      return made.map((change, index) => {
        const person = people[index];
        return (
          person === undefined ? change : { ...change, version: (before.get(person) ?? 0) + steps[index] }
        ) as Change;
      });
    },
  };
}
