import type {
  ModerationReport,
  ModerationReportPage,
  ReportReason,
  ReportStatus,
  ReportTarget,
} from '@pollscope/contract';
import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import { decodeCursor, MAX_ID, pageOf } from '../../db/pagination.js';
import { hydrate, type Reader } from '../../views/pipeline.js';
import { present } from '../../views/questions.js';
import { registeredTogether, type Registration } from './networks.js';

const QUEUE_PAGE = 20;
/**
 * A target's place in the queue, one integer as the cursor wants it: its reporters, then its
 * latest report (unique to it), so most reported first and, among as many, the latest first.
 */
const REPORTERS_WEIGHT = MAX_ID + 1;
/** The largest place a cursor holds (15 digits): a target of up to 465,000 reporters. */
const QUEUE_MAX_KEY = 999_999_999_999_999;

type TargetKey = `${ReportTarget}:${number}`;
const keyOf = (target: ReportTarget, id: number): TargetKey => `${target}:${id}`;

/**
 * A page of the queue: one entry per target reported, its open reports (or, for `closed`, those
 * decided), most reported first, with the reasons counted, the notes written, how many reporters
 * registered together, and the target as people see it. Never who reported it. A question is shown
 * to the moderator as to anyone, whatever moderation withheld, and with what was withheld.
 */
export async function queuePage(
  reader: Reader,
  status: ReportStatus,
  cursor: string | undefined,
): Promise<ModerationReportPage> {
  const { db } = reader;
  const before = decodeCursor(cursor, QUEUE_MAX_KEY);
  const place = sql<number>`count(distinct reporter_id) * ${sql.lit(REPORTERS_WEIGHT)} + max(id)`;
  let query = db
    .selectFrom('reports')
    .select(['target', 'target_id'])
    .select((eb) => [
      eb.fn.count<number>('reporter_id').distinct().as('reporters'),
      eb.fn.min('created_at').as('first_at'),
      eb.fn.max('created_at').as('last_at'),
      place.as('key'),
    ])
    .where('closed_at', status === 'open' ? 'is' : 'is not', null)
    .groupBy(['target', 'target_id'])
    .orderBy(place, 'desc')
    .limit(QUEUE_PAGE + 1);
  if (before !== null) query = query.having(place, '<', before);
  const { items, next } = pageOf(
    (await query.execute()).map((row) => ({ ...row, key: Number(row.key) })),
    QUEUE_PAGE,
  );
  const [details, questions, people] = await Promise.all([
    reportDetails(db, status, items),
    questionsOf(reader, items),
    peopleOf(db, items),
  ]);
  const reports = items.map((item): ModerationReport => {
    const key = keyOf(item.target, item.target_id);
    const { reasons, notes, reporters } = details.get(key)!;
    const together = registeredTogether([...reporters.values()]);
    const entry: ModerationReport = {
      target: item.target,
      id: item.target_id,
      status,
      reasons,
      reporters: Number(item.reporters),
      reporters_same_network: together.network,
      reporters_same_hour: together.hour,
      first_at: item.first_at,
      last_at: item.last_at,
      notes,
    };
    const question = questions.get(item.target_id);
    if (item.target === 'question' && question) entry.question = question;
    const person = people.get(item.target_id);
    if (item.target === 'user' && person) entry.user = person;
    return entry;
  });
  return { reports, next };
}

type QueueItem = { target: ReportTarget; target_id: number };

interface Details {
  reasons: Partial<Record<ReportReason, number>>;
  notes: string[];
  /** When and from which network each reporter registered, by their id. */
  reporters: Map<number, Registration>;
}

/** Of these targets, the reports of `status`: the reasons counted, the notes, oldest first, and their reporters. */
async function reportDetails(db: Db, status: ReportStatus, items: readonly QueueItem[]) {
  const details = new Map<TargetKey, Details>();
  for (const item of items)
    details.set(keyOf(item.target, item.target_id), { reasons: {}, notes: [], reporters: new Map() });
  const byTarget = (target: ReportTarget) =>
    items.filter((item) => item.target === target).map((item) => item.target_id);
  const [questionIds, userIds] = [byTarget('question'), byTarget('user')];
  if (items.length === 0) return details;
  const rows = await db
    .selectFrom('reports')
    .innerJoin('users', 'users.id', 'reports.reporter_id')
    .select([
      'reports.target',
      'reports.target_id',
      'reports.reason',
      'reports.note',
      'reports.reporter_id',
      'users.created_at',
      'users.registered_network',
    ])
    .where('reports.closed_at', status === 'open' ? 'is' : 'is not', null)
    .where((eb) =>
      eb.or([
        ...(questionIds.length > 0
          ? [eb.and([eb('reports.target', '=', 'question'), eb('reports.target_id', 'in', questionIds)])]
          : []),
        ...(userIds.length > 0
          ? [eb.and([eb('reports.target', '=', 'user'), eb('reports.target_id', 'in', userIds)])]
          : []),
      ]),
    )
    .orderBy('reports.id')
    .execute();
  for (const row of rows) {
    const detail = details.get(keyOf(row.target, row.target_id))!;
    detail.reasons[row.reason] = (detail.reasons[row.reason] ?? 0) + 1;
    if (row.note) detail.notes.push(row.note);
    detail.reporters.set(row.reporter_id, row);
  }
  return details;
}

/** The questions reported, as the moderator sees them, with what moderation withheld. */
async function questionsOf(reader: Reader, items: readonly QueueItem[]) {
  const ids = items.filter((item) => item.target === 'question').map((item) => item.target_id);
  const views = present(reader.moderation, reader.viewer, await hydrate(reader, ids));
  return new Map(
    views.map((view) => {
      const withheld = reader.moderation.questionMark(view.id);
      return [view.id, withheld ? { ...view, moderation: withheld } : view];
    }),
  );
}

/** The people reported, by id and first name. */
async function peopleOf(db: Db, items: readonly QueueItem[]) {
  const ids = items.filter((item) => item.target === 'user').map((item) => item.target_id);
  if (ids.length === 0) return new Map<number, { id: number; name: string }>();
  const rows = await db.selectFrom('users').select(['id', 'first_name']).where('id', 'in', ids).execute();
  return new Map(rows.map((row) => [row.id, { id: row.id, name: row.first_name }]));
}

/** How many targets have open reports: the moderator's shield in the header. */
export async function openTargets(db: Db): Promise<number> {
  const { open } = await db
    .selectFrom(
      db.selectFrom('reports').select(['target', 'target_id']).distinct().where('closed_at', 'is', null).as('targets'),
    )
    .select((eb) => eb.fn.countAll<number>().as('open'))
    .executeTakeFirstOrThrow();
  return Number(open);
}
