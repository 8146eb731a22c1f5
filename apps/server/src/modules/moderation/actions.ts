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
import type { DialectName } from '../../db/dialect.js';
import { lockedForUpdate } from '../../db/locks.js';
import type { Db } from '../../db/index.js';
import { SYSTEM_EMAIL } from '../../db/schema.js';
import { BadRequestError, ConflictError, ForbiddenError, NotFoundError } from '../../errors.js';
import { endSessionlessSubscriptions } from '../push/index.js';
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
  dismiss: 'dismissed',
  remove: 'action_taken',
  restore: 'dismissed',
  suspend: 'action_taken',
  unsuspend: 'dismissed',
  warn: 'action_taken',
};

/**
 * What moderators may do to the site's own account and its quiz questions: nothing that moderates them, only close
 * what people reported of them and undo what was done to them before this rule.
 */
const ON_THE_SITE: readonly ModerationAction[] = ['dismiss', 'restore', 'unsuspend'];

/** What a moderator whom nobody else can act on decides on their own question: keep it, bring it back, take it down. */
const ON_ONE_S_OWN: readonly ModerationAction[] = ['dismiss', 'restore', 'remove'];

/**
 * The body's own rules, before anything is read: which target each action takes, and `until` with `suspend` only, in
 * the future.
 */
function checkAction({ target, action, until }: ActionBody, now: Date): void {
  const only = TARGET_OF[action];
  if (only && only !== target) {
    const wrongTarget = { id: 'errors.moderation.wrongTarget', values: { action, target: only } } as const;
    throw new BadRequestError(wrongTarget, { target: wrongTarget });
  }
  if (until !== undefined && action !== 'suspend')
    throw new BadRequestError('errors.moderation.onlySuspensionEnds', {
      until: 'errors.moderation.onlySuspensionEnds',
    });
  if (until !== undefined && Date.parse(until) <= now.getTime())
    throw new BadRequestError('errors.moderation.endInPast', { until: 'errors.moderation.pickFuture' });
}

/**
 * The person concerned, with their role and the question acted on, locked for the action (404
 * when there is none), and whether it is the moderator's own question. Nobody moderates the site's
 * own account (400), nor acts on themselves (400, see `refuseOwn`), and only an admin acts on a
 * moderator or an admin (403).
 */
async function concernedBy(
  trx: Db,
  dialect: DialectName,
  moderator: Moderator,
  { target, id, action }: ActionBody,
  now: Date,
) {
  const question =
    target === 'question'
      ? await lockedForUpdate(
          dialect,
          trx.selectFrom('questions').select(['id', 'user_id', 'title', 'moderation']).where('id', '=', id),
        ).executeTakeFirst()
      : null;
  if (question === undefined) throw new NotFoundError('errors.noSuchQuestion');
  const personId = question ? question.user_id : id;
  const person = await lockedForUpdate(
    dialect,
    trx
      .selectFrom('users')
      .select(['id', 'email', 'first_name', 'role', 'suspension_reason', 'suspended_until'])
      .where('id', '=', personId),
  ).executeTakeFirst();
  if (!person) throw new NotFoundError('errors.noSuchUser');
  if (person.email === SYSTEM_EMAIL && !ON_THE_SITE.includes(action))
    throw new BadRequestError('errors.moderation.siteAccount');
  const ownQuestion = person.id === moderator.id;
  if (ownQuestion) await refuseOwn(trx, person.id, target, action, now);
  else if (person.role !== 'member' && moderator.role !== 'admin')
    throw new ForbiddenError('errors.moderation.adminOnly');
  return { person, question, ownQuestion };
}

/**
 * Nobody acts on themselves (400). Their own question, though, must not stay hidden by reports with nobody able to
 * decide on it: a moderator whom no other admin can act on (the only admin who is not suspended, or a moderator where
 * there is none) decides on it, short of warning themselves, and the log says so.
 */
async function refuseOwn(
  trx: Db,
  personId: number,
  target: ActionBody['target'],
  action: ModerationAction,
  now: Date,
): Promise<void> {
  if (target === 'user') throw new BadRequestError('errors.moderation.notOnYourself');
  if (!ON_ONE_S_OWN.includes(action)) throw new BadRequestError('errors.moderation.notWarnYourself');
  const otherAdmin = await trx
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'admin')
    .where('id', '<>', personId)
    .where((eb) => eb.or([eb('suspension_reason', 'is', null), eb('suspended_until', '<=', now.toISOString())]))
    .executeTakeFirst();
  if (otherAdmin) throw new BadRequestError('errors.moderation.otherAdminDecides');
}

/** The person and the question an action concerns, as `concernedBy` found them. */
type ActedOn = Awaited<ReturnType<typeof concernedBy>>;

/**
 * The action's own change to the question or the person (409 when it has nothing to change). A suspension ends every
 * session of the person and every push subscription.
 */
async function changeTarget(
  trx: Db,
  { person, question }: ActedOn,
  { action, reason }: ActionBody,
  until: string | null,
  now: Date,
): Promise<Change[]> {
  const moderateQuestion = async (moderation: { status: 'removed'; reason: string } | null): Promise<Change[]> => {
    await trx
      .updateTable('questions')
      .set({ moderation: moderation?.status ?? null, moderation_reason: moderation?.reason ?? null })
      .where('id', '=', question!.id)
      .execute();
    return [{ kind: 'questionModerated', questionId: question!.id, authorId: person.id, moderation }];
  };
  switch (action) {
    case 'dismiss':
    case 'warn':
      // Reports hid it until a moderator decided: dismissing them, or warning its author, decides it stays. A warning
      // that left it hidden would close its reports, drop it from the queue and leave it under review for good.
      return question?.moderation === 'under_review' ? moderateQuestion(null) : [];
    case 'remove':
      if (question!.moderation === 'removed') throw new ConflictError('errors.moderation.removedAlready');
      return moderateQuestion({ status: 'removed', reason });
    case 'restore':
      if (question!.moderation === null) throw new ConflictError('errors.moderation.shownAlready');
      return moderateQuestion(null);
    case 'suspend':
      await trx
        .updateTable('users')
        .set({ suspension_reason: reason, suspended_until: until })
        .where('id', '=', person.id)
        .execute();
      // The push subscriptions each session made go with it (on delete cascade).
      await trx.deleteFrom('sessions').where('user_id', '=', person.id).execute();
      await endSessionlessSubscriptions(trx, person.id);
      return [{ kind: 'userSuspended', userId: person.id, until }];
    case 'unsuspend': {
      const suspended =
        person.suspension_reason !== null &&
        (person.suspended_until === null || Date.parse(person.suspended_until) > now.getTime());
      if (!suspended) throw new ConflictError('errors.moderation.notSuspended');
      await trx
        .updateTable('users')
        .set({ suspension_reason: null, suspended_until: null })
        .where('id', '=', person.id)
        .execute();
      return [{ kind: 'userUnsuspended', userId: person.id }];
    }
  }
}

/** Appends the action to the moderation log: its entry, as the log shows it. */
async function logAction(
  trx: Db,
  moderator: Moderator,
  { action, target, id, reason }: ActionBody,
  { at, until, ownQuestion }: { at: string; until: string | null; ownQuestion: boolean },
): Promise<ModerationLogEntry> {
  const logged = await trx
    .insertInto('moderation_log')
    .values({
      at,
      moderator_id: moderator.id,
      action,
      target,
      target_id: id,
      reason,
      until,
      own_question: ownQuestion ? 1 : 0,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { first_name: moderatorName } = await trx
    .selectFrom('users')
    .select('first_name')
    .where('id', '=', moderator.id)
    .executeTakeFirstOrThrow();
  return {
    id: logged.id,
    at,
    moderator: { id: moderator.id, name: moderatorName },
    action,
    target,
    target_id: id,
    reason,
    until,
    own_question: ownQuestion,
  };
}

/**
 * What a moderator decided, in one transaction: the change to the question or the person, the
 * target's open reports closed, an entry appended to the log, and the person told by mail and
 * (its `moderatorActed` change) in the bell, whatever their settings. A suspension ends every
 * session of the person here, so that none answers once the action has, and every push
 * subscription, so that no device of theirs gets a push (the notice of the suspension goes by mail).
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
  const actedOn = await concernedBy(trx, dialect, moderator, body, now);
  const { person, question, ownQuestion } = actedOn;
  const { action, reason } = body;
  const until = body.until === undefined ? null : new Date(body.until).toISOString();
  const changes = await changeTarget(trx, actedOn, body, until, now);
  await closeReports(trx, body.target, body.id, OUTCOME_OF[action], at);
  const entry = await logAction(trx, moderator, body, { at, until, ownQuestion });
  // The site's own account is nobody to tell, and a moderator deciding on their own question knows already.
  if (person.email !== SYSTEM_EMAIL && !ownQuestion) {
    const told: NotificationModeration = { action, reason, until };
    const concerned: Concerned = {
      id: person.id,
      email: person.email,
      first_name: person.first_name,
      question: question && { id: question.id, title: question.title },
    };
    await queueModerationMail(trx, config, concerned, told);
    // Told in the bell too, by the notifications area, as each change that tells someone is.
    changes.push({ kind: 'moderatorActed', userId: person.id, questionId: question?.id ?? null, told });
  }
  return { changes, entry };
}
