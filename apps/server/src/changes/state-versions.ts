import { sql } from 'kysely';
import { readLater } from '../db/dialect.js';
import type { Db } from '../db/index.js';
import type { Change, ChangeMade } from './change.js';

/**
 * The change with the state version it moves each person to, asked of `next` for each person
 * whose own state (views/viewer-states.ts) it moves, in order: the one place that knows which
 * change moves whose state.
 */
function stamped(change: ChangeMade, next: (userId: number) => number): Change {
  switch (change.kind) {
    case 'voted':
      return { ...change, version: next(change.voterId) };
    case 'liked':
    case 'unliked':
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

/**
 * Moves the `state_version` of each person whose own state the write's changes move, one step per
 * change, in the write's transaction and in one statement per number of steps however many
 * changes there are (a batch of votes): the one place a state version moves. The statements are
 * sent at once, and the changes come stamped with the versions they moved to once they are
 * answered, which the transaction's commit need not wait for (db/dialect.ts, readLater).
 */
export async function stampStateVersions(
  trx: Db,
  made: readonly ChangeMade[],
): Promise<{ stamped: Promise<Change[]> }> {
  const steps = new Map<number, number>();
  for (const change of made) {
    stamped(change, (userId) => {
      steps.set(userId, (steps.get(userId) ?? 0) + 1);
      return 0;
    });
  }
  const peopleBySteps = new Map<number, number[]>();
  for (const [userId, count] of steps) peopleBySteps.set(count, [...(peopleBySteps.get(count) ?? []), userId]);
  const moves = [];
  for (const [count, userIds] of peopleBySteps) {
    const { rows } = await readLater(
      trx,
      trx
        .updateTable('users')
        .set({ state_version: sql`state_version + ${count}` })
        .where('id', 'in', userIds)
        .returning(['id', 'state_version']),
    );
    moves.push(rows.then((moved) => ({ count, moved })));
  }
  const stampedChanges = Promise.all(moves).then((answers) => {
    /** Each person's version before these changes, then after each change stamped so far. */
    const versions = new Map<number, number>();
    for (const { count, moved } of answers)
      for (const person of moved) versions.set(person.id, person.state_version - count);
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
