import type { Change } from '../../changes/change.js';
import type { DialectName } from '../../db/dialect.js';
import { lockedForUpdate } from '../../db/locks.js';
import type { Db } from '../../db/index.js';
import { UnauthorizedError } from '../../errors.js';
import { forgetReleasesOf, keepReleasedVotesOf } from '../insights/index.js';
import { forgetRecipient } from '../mail/index.js';
import { removeReportsOf } from '../moderation/index.js';
import { removeNotificationsOf } from '../notifications/index.js';
import { lockContentOf, removeContentOf } from '../polls/index.js';
import { addActivity, uncountActivity, type ActivityByDay } from '../site/index.js';
import { removeConnectionsOf } from '../social/index.js';

/**
 * Deletes the person and everything of theirs in the caller's transaction: their questions with
 * every vote, like and pass on them and their private releases, their own votes, likes and
 * passes, with every count that counted them (the epochs of private releases already released
 * keep counting their votes, tied to nobody); their follows and blocks both ways, their
 * notifications and their part in others', every mail to their address and every mail still
 * waiting that names them, their sessions, links to choose a new password and push subscriptions,
 * and their row, whose email can then register again. What the site's chart counted of them goes
 * too. The questions are locked first, in the order every batch of votes locks them, then the
 * person; the site's chart, which every write counts in last, last.
 */
export async function deleteAccount(trx: Db, dialect: DialectName, userId: number): Promise<Change> {
  await lockContentOf(trx, dialect, userId);
  const person = await lockedForUpdate(
    dialect,
    trx.selectFrom('users').select(['email', 'created_at']).where('id', '=', userId),
  ).executeTakeFirst();
  // Deleted by another request of theirs a moment ago.
  if (!person) throw new UnauthorizedError('errors.sessionEnded');
  const notifiedIds = await removeNotificationsOf(trx, userId);
  await removeReportsOf(trx, userId);
  const activity: ActivityByDay = new Map();
  await keepReleasedVotesOf(trx, userId);
  const { questionIds, touchedQuestionIds } = await removeContentOf(trx, userId, activity);
  await forgetReleasesOf(trx, questionIds);
  await removeConnectionsOf(trx, userId);
  await forgetRecipient(trx, person.email);
  // Their sessions, links to choose a new password and push subscriptions (with the pushes waiting for them) go with
  // the row (on delete cascade).
  await trx.deleteFrom('users').where('id', '=', userId).execute();
  addActivity(activity, 'users', person.created_at);
  await uncountActivity(trx, activity);
  return { kind: 'accountDeleted', userId, questionIds, touchedQuestionIds, notifiedIds };
}
