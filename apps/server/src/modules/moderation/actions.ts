import type {
  ModerationAction,
  moderationActionBodySchema,
  ModerationLogEntry,
  NotificationModeration,
  ReportOutcome,
  Role,
} from '@pollscope/contract';
import type { z } from 'zod';
import type { Change } from '../../changes/change.js';
import type { Config } from '../../config.js';
import { lockedForUpdate, type DialectName } from '../../db/dialect.js';
import type { Db } from '../../db/index.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { notifyModeration } from '../notifications/index.js';
import { queueModerationMail, type Concerned } from './notice.js';
import { closeReports } from './reports.js';

type ActionBody = z.output<typeof moderationActionBodySchema>;

/** Who acts: a moderator or an admin. */
export interface Moderator {
  id: number;
  role: Role;
}

/** What an action made: its changes, and its entry in the log. */
export interface Acted {
  changes: Change[];
  entry: ModerationLogEntry;
}

/** The actions that only one kind of target takes. */
const TARGET_OF: Partial<Record<ModerationAction, 'question' | 'user'>> = {
  remove: 'question',
  restore: 'question',
  suspend: 'user',
  unsuspend: 'user',
};

/** What the reports closed by each action come to, as their reporters see it. */
const OUTCOME_OF: Record<ModerationAction, Exclude<ReportOutcome, 'open'>> = {
  dismiss: 'no_action',
  remove: 'action_taken',
  restore: 'no_action',
  suspend: 'action_taken',
  unsuspend: 'no_action',
  warn: 'action_taken',
};

/**
 * The body's own rules, before anything is read: which target each action takes, and `until` with `suspend` only, in
 * the future.
 */
function checkAction({ target, action, until }: ActionBody, now: Date): void {
  const only = TARGET_OF[action];
  if (only && only !== target)
    throw new BadRequestError(`${action} acts on a ${only}`, { target: `${action} acts on a ${only}` });
  if (until !== undefined && action !== 'suspend')
    throw new BadRequestError('Only a suspension has an end', { until: 'Only a suspension has an end' });
  if (until !== undefined && Date.parse(until) <= now.getTime())
    throw new BadRequestError('The end of a suspension is in the future', { until: 'Pick a time in the future' });
}

/**
 * The person concerned, with their role and the question acted on, locked for the action (404
 * when there is none). Nobody acts on themselves or their own question (400), and only an admin
 * acts on a moderator or an admin (403).
 */
async function concernedBy(trx: Db, dialect: DialectName, moderator: Moderator, { target, id }: ActionBody) {
  const question =
    target === 'question'
      ? await lockedForUpdate(
          dialect,
          trx.selectFrom('questions').select(['id', 'user_id', 'title', 'moderation']).where('id', '=', id),
        ).executeTakeFirst()
      : null;
  if (question === undefined) throw new NotFoundError('No such question');
  const personId = question ? question.user_id : id;
  const person = await lockedForUpdate(
    dialect,
    trx
      .selectFrom('users')
      .select(['id', 'email', 'first_name', 'role', 'suspension_reason', 'suspended_until'])
      .where('id', '=', personId),
  ).executeTakeFirst();
  if (!person) throw new NotFoundError('No such user');
  if (person.id === moderator.id)
    throw new BadRequestError(
      target === 'question' ? 'You cannot act on your own question' : 'You cannot act on yourself',
    );
  if (person.role !== 'member' && moderator.role !== 'admin')
    throw new ForbiddenError('Only an admin can act on a moderator or an admin');
  return { person, question };
}

/**
 * What a moderator decided, in one transaction: the change to the question or the person, the
 * target's open reports closed, an entry appended to the log, and the person told in the bell and
 * by mail whatever their settings. A suspension ends every session of the person here, so that
 * none answers once the action has.
 */
export async function act(
  trx: Db,
  dialect: DialectName,
  config: Pick<Config, 'publicUrl'>,
  moderator: Moderator,
  body: ActionBody,
): Promise<Acted> {
  const now = new Date();
  const at = now.toISOString();
  checkAction(body, now);
  const { person, question } = await concernedBy(trx, dialect, moderator, body);
  const { action, reason } = body;
  const until = body.until === undefined ? null : new Date(body.until).toISOString();
  const changes: Change[] = [];
  const moderateQuestion = async (moderation: { status: 'removed'; reason: string } | null) => {
    await trx
      .updateTable('questions')
      .set({ moderation: moderation?.status ?? null, moderation_reason: moderation?.reason ?? null })
      .where('id', '=', question!.id)
      .execute();
    changes.push({ kind: 'questionModerated', questionId: question!.id, authorId: person.id, moderation });
  };
  const suspended =
    person.suspension_reason !== null &&
    (person.suspended_until === null || Date.parse(person.suspended_until) > now.getTime());

  switch (action) {
    case 'dismiss':
      // Reports hid it until a moderator decided: this one decided it stays.
      if (question?.moderation === 'under_review') await moderateQuestion(null);
      break;
    case 'remove':
      if (question!.moderation === 'removed') throw new ConflictError('This question is removed already');
      await moderateQuestion({ status: 'removed', reason });
      break;
    case 'restore':
      if (question!.moderation === null) throw new ConflictError('This question is shown to everyone already');
      await moderateQuestion(null);
      break;
    case 'suspend':
      await trx
        .updateTable('users')
        .set({ suspension_reason: reason, suspended_until: until })
        .where('id', '=', person.id)
        .execute();
      await trx.deleteFrom('sessions').where('user_id', '=', person.id).execute();
      changes.push({ kind: 'userSuspended', userId: person.id, until });
      break;
    case 'unsuspend':
      if (!suspended) throw new ConflictError('This person is not suspended');
      await trx
        .updateTable('users')
        .set({ suspension_reason: null, suspended_until: null })
        .where('id', '=', person.id)
        .execute();
      changes.push({ kind: 'userUnsuspended', userId: person.id });
      break;
    case 'warn':
      break;
  }

  await closeReports(trx, body.target, body.id, OUTCOME_OF[action], at);
  const logged = await trx
    .insertInto('moderation_log')
    .values({ at, moderator_id: moderator.id, action, target: body.target, target_id: body.id, reason, until })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { first_name: moderatorName } = await trx
    .selectFrom('users')
    .select('first_name')
    .where('id', '=', moderator.id)
    .executeTakeFirstOrThrow();
  const told: NotificationModeration = { action, reason, until };
  const concerned: Concerned = {
    id: person.id,
    email: person.email,
    first_name: person.first_name,
    question: question && { id: question.id, title: question.title },
  };
  await notifyModeration(trx, person.id, told, question?.id ?? null);
  await queueModerationMail(trx, config, concerned, told);
  changes.push({ kind: 'notified', userId: person.id });
  return {
    changes,
    entry: {
      id: logged.id,
      at,
      moderator: { id: moderator.id, name: moderatorName },
      action,
      target: body.target,
      target_id: body.id,
      reason,
      until,
    },
  };
}
