import type { Selectable } from 'kysely';
import { randomUUID } from 'node:crypto';
import { holdingLocks, skippingLockedRows, type DialectName } from '../../db/dialect.js';
import type { Db } from '../../db/index.js';
import type { MailOutboxTable } from '../../db/schema.js';
import { plainLine } from './plain-line.js';

export interface Mail {
  to: string;
  /**
   * The account the mail is written for (an account's export lists it): by default the one that
   * has the address `to` now. Given for mail to an address that is not yet, or no longer, the
   * account's own: a new email to confirm, a notice to the address it had.
   */
  userId?: number | null;
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

const minutesAfter = (now: Date, minutes: number) => new Date(now.getTime() + minutes * 60_000).toISOString();

/**
 * Writes a mail to send in the caller's transaction: it exists exactly when what caused it has
 * committed, and goes out after that. It is kept with the account it is written for, so that a
 * later owner of the address never sees it as theirs. Its subject is one plain line, whatever a
 * name or title in it held (`plainLine`). Returns the unique part of its `Message-ID`.
 */
export async function queueMail(trx: Db, mail: Mail): Promise<string> {
  const now = new Date().toISOString();
  const messageId = randomUUID();
  const userId =
    mail.userId !== undefined
      ? mail.userId
      : ((await trx.selectFrom('users').select('id').where('email', '=', mail.to).executeTakeFirst())?.id ?? null);
  await trx
    .insertInto('mail_outbox')
    .values({
      recipient: mail.to,
      user_id: userId,
      subject: plainLine(mail.subject),
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

/** What came of sending one due mail. */
export type Attempt = { row: OutboxRow; error: null } | { row: OutboxRow; error: string; retryAt: string | null };

/**
 * Sends the next due mail, or returns null when none is due. On PostgreSQL its row stays locked
 * until the send is recorded, so that other instances skip it, and an instance that dies mid-send
 * lets it go at once; a SQLite file has one server, whose worker sends one mail at a time. A
 * crash after the send and before it is recorded sends it once more, with the same Message-ID.
 */
export async function sendDueMail(
  db: Db,
  dialect: DialectName,
  send: (row: OutboxRow) => Promise<void>,
  now = new Date(),
): Promise<Attempt | null> {
  return holdingLocks(db, dialect, async (held) => {
    const row = await skippingLockedRows(
      dialect,
      held
        .selectFrom('mail_outbox')
        .selectAll()
        .where('given_up_at', 'is', null)
        .where('due_at', '<=', now.toISOString())
        .orderBy('due_at')
        .limit(1),
    ).executeTakeFirst();
    if (!row) return null;
    const error = await send(row).then(
      () => null,
      (failure: unknown) => (failure instanceof Error ? failure.message : String(failure)),
    );
    if (error === null) {
      await forgetSent(held, row.id);
      return { row, error };
    }
    return { row, error, retryAt: await markFailed(held, row, error, now) };
  });
}

/**
 * Forgets a mail once its server took it: the outbox keeps no one's address or words longer than
 * it must. Given-up mails stay, for an operator to look into.
 */
export async function forgetSent(db: Db, id: number): Promise<void> {
  await db.deleteFrom('mail_outbox').where('id', '=', id).execute();
}

/**
 * Counts a failed attempt: the mail waits its next delay, and returns when it is due again, or is given up past the
 * last, and returns null.
 */
export async function markFailed(db: Db, row: OutboxRow, error: string, now = new Date()): Promise<string | null> {
  const attempts = row.attempts + 1;
  const delay = RETRY_DELAYS_MINUTES.at(attempts - 1);
  const retryAt = delay === undefined ? null : minutesAfter(now, delay);
  await db
    .updateTable('mail_outbox')
    .set({ attempts, last_error: error, ...(retryAt ? { due_at: retryAt } : { given_up_at: now.toISOString() }) })
    .where('id', '=', row.id)
    .execute();
  return retryAt;
}

/**
 * Deletes every mail to `address`, sent or not, one being sent included: an account deleted leaves its address nowhere.
 */
export async function forgetRecipient(trx: Db, address: string): Promise<void> {
  await trx.deleteFrom('mail_outbox').where('recipient', '=', address).execute();
}

/** Takes back the mails of these `Message-ID`s that are still waiting to be sent; returns those taken back. */
export async function withdrawMail(trx: Db, messageIds: readonly string[]): Promise<string[]> {
  if (messageIds.length === 0) return [];
  const withdrawn = await trx
    .deleteFrom('mail_outbox')
    .where('message_id', 'in', messageIds)
    .returning('message_id')
    .execute();
  return withdrawn.map((row) => row.message_id);
}

/** The mail waiting to be sent (not given up), and since when the oldest has waited, null when none. */
export async function outboxBacklog(db: Db): Promise<{ waiting: number; oldestCreatedAt: string | null }> {
  const row = await db
    .selectFrom('mail_outbox')
    .select((eb) => [eb.fn.countAll<number>().as('waiting'), eb.fn.min('created_at').as('oldest')])
    .where('given_up_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { waiting: Number(row.waiting), oldestCreatedAt: row.oldest };
}
