import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/index.js';
import type { Outbox, OutboxRow } from '../outbox/index.js';
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

export type MailRow = OutboxRow<'mail_outbox'>;

/**
 * The wait before each retry: a mail server down for a day still gets the mail once it is back.
 * A mail that fails once more after the last is given up.
 */
export const RETRY_DELAYS_MINUTES = [1, 5, 30, 120, 360, 720, 720];

/** Mail to send, one row a mail, sent by the outbox worker (`plugins/app/mail.ts`) with the same Message-ID each time. */
export const mailOutbox: Outbox<'mail_outbox'> = { table: 'mail_outbox', retryDelaysMinutes: RETRY_DELAYS_MINUTES };

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
