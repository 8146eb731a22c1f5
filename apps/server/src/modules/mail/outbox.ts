import type { Selectable } from 'kysely';
import { randomUUID } from 'node:crypto';
import { skippingLockedRows, type DialectName } from '../../db/dialect.js';
import type { Db } from '../../db/index.js';
import type { MailOutboxTable } from '../../db/schema.js';

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Headers beyond those every mail has: `List-Unsubscribe` and the like. */
  headers?: Record<string, string>;
}

export type OutboxRow = Selectable<MailOutboxTable>;

/**
 * The wait before each retry: a mail server down for a day still gets the mail once it is back.
 * A mail that fails once more after the last is given up.
 */
export const RETRY_DELAYS_MINUTES = [1, 5, 30, 120, 360, 720, 720];

/**
 * How long a claim keeps other instances off a row: far longer than a send may take (the
 * transport's timeouts), so that only an instance that died mid-send lets it lapse.
 */
const CLAIM_MINUTES = 10;

const minutesAfter = (now: Date, minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

/**
 * Writes a mail to send in the caller's transaction: it exists exactly when what caused it has
 * committed, and goes out after that. Returns the unique part of its `Message-ID`.
 */
export async function queueMail(trx: Db, mail: Mail): Promise<string> {
  const now = new Date().toISOString();
  const messageId = randomUUID();
  await trx
    .insertInto('mail_outbox')
    .values({
      recipient: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      headers: JSON.stringify(mail.headers ?? {}),
      message_id: messageId,
      created_at: now,
      due_at: now,
    })
    .execute();
  return messageId;
}

/** Claims the next due mail for this instance, or returns null when none is due. */
export async function claimDueMail(db: Db, dialect: DialectName, now = new Date()): Promise<OutboxRow | null> {
  const at = now.toISOString();
  return db.transaction().execute(async (trx) => {
    const due = await skippingLockedRows(
      dialect,
      trx
        .selectFrom('mail_outbox')
        .selectAll()
        .where('sent_at', 'is', null)
        .where('given_up_at', 'is', null)
        .where('due_at', '<=', at)
        .where((eb) => eb.or([eb('claimed_until', 'is', null), eb('claimed_until', '<', at)]))
        .orderBy('due_at')
        .limit(1),
    ).executeTakeFirst();
    if (!due) return null;
    await trx
      .updateTable('mail_outbox')
      .set({ claimed_until: minutesAfter(now, CLAIM_MINUTES) })
      .where('id', '=', due.id)
      .execute();
    return due;
  });
}

export async function markSent(db: Db, id: number): Promise<void> {
  await db.updateTable('mail_outbox').set({ sent_at: new Date().toISOString(), claimed_until: null }).where('id', '=', id).execute();
}

/** Counts a failed attempt: the mail waits its next delay, and returns when it is due again, or is given up past the last, and returns null. */
export async function markFailed(db: Db, row: OutboxRow, error: string, now = new Date()): Promise<string | null> {
  const attempts = row.attempts + 1;
  const delay = RETRY_DELAYS_MINUTES.at(attempts - 1);
  const retryAt = delay === undefined ? null : minutesAfter(now, delay);
  await db
    .updateTable('mail_outbox')
    .set({ attempts, last_error: error, claimed_until: null, ...(retryAt ? { due_at: retryAt } : { given_up_at: now.toISOString() }) })
    .where('id', '=', row.id)
    .execute();
  return retryAt;
}

/** The mail waiting to be sent (not sent, not given up), and since when the oldest has waited, null when none. */
export async function outboxBacklog(db: Db): Promise<{ waiting: number; oldestCreatedAt: string | null }> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => [eb.fn.countAll<number>().as('waiting'), eb.fn.min('created_at').as('oldest')])
    .where('sent_at', 'is', null)
    .where('given_up_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { waiting: Number(row.waiting), oldestCreatedAt: row.oldest };
}
