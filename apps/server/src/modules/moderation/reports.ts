import type { MyReportPage, ReportOutcome, ReportTarget, reportBodySchema } from '@pollscope/contract';
import { sql } from 'kysely';
import type { z } from 'zod';
import type { Change } from '../../changes/change.js';
import type { DialectName } from '../../db/dialect.js';
import { lockedForUpdate } from '../../db/locks.js';
import type { Db } from '../../db/index.js';
import { decodeCursor, pageOf } from '../../db/pagination.js';
import { SYSTEM_EMAIL } from '../../db/schema.js';
import { ConflictError } from '../../errors.js';

type Report = z.output<typeof reportBodySchema>;

/** How old an account must be for its reports to hide a question: a new account costs nothing to make. */
export const COUNTING_ACCOUNT_AGE_MS = 24 * 3600 * 1000;
/** How many questions an account must have answered for its reports to hide one: an account left idle costs nothing. */
export const COUNTING_ANSWERS = 10;

const MY_REPORTS_PAGE = 20;

/**
 * What a new report made: its id, whether it is new (201) or the reporter's open one of the target (200), and what it
 * changed.
 */
export interface Reported {
  id: number;
  created: boolean;
  changes: Change[];
}

/**
 * Files the report, or finds the reporter's own report of the target while it is open: one
 * person's reports of one target count once. A question a moderator decided on after the person
 * reported it is not theirs to report again (409). A report of a question by someone whose account is
 * a day old and answered `COUNTING_ANSWERS` questions counts toward hiding it: once `threshold` different
 * such people have reported it and no moderator has decided, it is under review, withheld from everyone
 * but its author. The question's row is locked first, so that reports arriving together count each other.
 */
export async function fileReport(
  trx: Db,
  dialect: DialectName,
  reporterId: number,
  report: Report,
  authorId: number | null,
  threshold: number,
): Promise<Reported> {
  const now = new Date();
  if (report.target === 'question') {
    await lockedForUpdate(dialect, trx.selectFrom('questions').select('id').where('id', '=', report.id)).execute();
    await refuseDecided(trx, reporterId, report.id);
  }
  const reporter = await trx
    .selectFrom('users')
    .select(['created_at', 'answer_count'])
    .where('id', '=', reporterId)
    .executeTakeFirstOrThrow();
  const counts =
    now.getTime() - Date.parse(reporter.created_at) >= COUNTING_ACCOUNT_AGE_MS &&
    reporter.answer_count >= COUNTING_ANSWERS;
  const inserted = await trx
    .insertInto('reports')
    .values({
      reporter_id: reporterId,
      target: report.target,
      target_id: report.id,
      reason: report.reason,
      note: report.note || null,
      counts: counts ? 1 : 0,
      created_at: now.toISOString(),
    })
    // The partial unique index of open reports (migration 017), named by its predicate as written there.
    .onConflict((conflict) =>
      conflict
        .columns(['reporter_id', 'target', 'target_id'])
        .where(sql<boolean>`closed_at is null`)
        .doNothing(),
    )
    .returning('id')
    .executeTakeFirst();
  if (!inserted) {
    const open = await trx
      .selectFrom('reports')
      .select('id')
      .where('reporter_id', '=', reporterId)
      .where('target', '=', report.target)
      .where('target_id', '=', report.id)
      .where('closed_at', 'is', null)
      .executeTakeFirstOrThrow();
    return { id: open.id, created: false, changes: [] };
  }
  const hidden =
    report.target === 'question' && counts && authorId !== null
      ? await hideAtThreshold(trx, report.id, authorId, threshold)
      : null;
  const filed: Change = { kind: 'reported', reporterId, target: report.target, targetId: report.id };
  return { id: inserted.id, created: true, changes: hidden ? [filed, hidden] : [filed] };
}

/**
 * A question its moderators decided on (dismissed, restored, warned about) after the person reported it is not theirs to
 * report again: every decision closes the reports open, so a closed report of theirs means one was made since.
 */
async function refuseDecided(trx: Db, reporterId: number, questionId: number): Promise<void> {
  const decided = await trx
    .selectFrom('reports')
    .select('id')
    .where('reporter_id', '=', reporterId)
    .where('target', '=', 'question')
    .where('target_id', '=', questionId)
    .where('closed_at', 'is not', null)
    .executeTakeFirst();
  if (decided) throw new ConflictError('errors.reports.decided');
}

/**
 * Puts the question under review once enough different people whose reports count have reported it, unless a moderator
 * acted on it already. Only open reports count: a decision closes them all and their reporters cannot report the
 * question again, so after a decision it takes `threshold` people new to it. The site's own questions (the quiz) are
 * never hidden: no moderator could act on them.
 */
async function hideAtThreshold(
  trx: Db,
  questionId: number,
  authorId: number,
  threshold: number,
): Promise<Change | null> {
  const { reporters } = await trx
    .selectFrom('reports')
    .select((eb) => eb.fn.count<number>('reporter_id').distinct().as('reporters'))
    .where('target', '=', 'question')
    .where('target_id', '=', questionId)
    .where('closed_at', 'is', null)
    .where('counts', '=', 1)
    .executeTakeFirstOrThrow();
  if (Number(reporters) < threshold) return null;
  const author = await trx.selectFrom('users').select('email').where('id', '=', authorId).executeTakeFirstOrThrow();
  if (author.email === SYSTEM_EMAIL) return null;
  const { numUpdatedRows } = await trx
    .updateTable('questions')
    .set({ moderation: 'under_review', moderation_reason: null })
    .where('id', '=', questionId)
    .where('moderation', 'is', null)
    .executeTakeFirst();
  if (numUpdatedRows === 0n) return null;
  return { kind: 'questionModerated', questionId, authorId, moderation: { status: 'under_review', reason: null } };
}

/** Closes the target's open reports with what the decision did. */
export async function closeReports(
  trx: Db,
  target: ReportTarget,
  targetId: number,
  outcome: Exclude<ReportOutcome, 'open'>,
  at: string,
): Promise<void> {
  await trx
    .updateTable('reports')
    .set({ closed_at: at, outcome })
    .where('target', '=', target)
    .where('target_id', '=', targetId)
    .where('closed_at', 'is', null)
    .execute();
}

/**
 * The reporter's own reports, newest first, with what came of each: never who else reported, nor what the others wrote.
 */
export async function myReports(db: Db, reporterId: number, cursor: string | undefined): Promise<MyReportPage> {
  const before = decodeCursor(cursor);
  let query = db
    .selectFrom('reports')
    .select(['id as key', 'target', 'target_id', 'reason', 'created_at', 'outcome', 'closed_at'])
    .where('reporter_id', '=', reporterId)
    .orderBy('id', 'desc')
    .limit(MY_REPORTS_PAGE + 1);
  if (before !== null) query = query.where('id', '<', before);
  const { items, next } = pageOf(await query.execute(), MY_REPORTS_PAGE);
  return {
    reports: items.map((row) => ({
      id: row.key,
      target: row.target,
      target_id: row.target_id,
      reason: row.reason,
      created_at: row.created_at,
      outcome: row.outcome ?? 'open',
      reviewed_at: row.closed_at,
    })),
    next,
  };
}

/**
 * Deletes the reports of the person and of their questions, as their account is deleted, before
 * the questions go; the reports they made go with their row.
 */
export async function removeReportsOf(trx: Db, userId: number): Promise<void> {
  await trx
    .deleteFrom('reports')
    .where((eb) =>
      eb.or([
        eb.and([eb('target', '=', 'user'), eb('target_id', '=', userId)]),
        eb.and([
          eb('target', '=', 'question'),
          eb('target_id', 'in', eb.selectFrom('questions').select('id').where('user_id', '=', userId)),
        ]),
      ]),
    )
    .execute();
}
