import type { FastifyBaseLogger } from 'fastify';
import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Config } from '../../config.js';
import type { MailRow } from './outbox.js';

export interface MailTransport {
  /** Sends one mail of the outbox, or throws why it could not. */
  send(row: MailRow): Promise<void>;
  close(): void;
}

/** The domain of the From address, the right part of every `Message-ID`. */
function domainOf(from: string): string {
  return /@([^@\s<>]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
}

/** The same message on every attempt: a mail sent again after a crash has the same `Message-ID` and date. */
function messageOf(row: MailRow, config: Config) {
  return {
    from: config.mailFrom,
    to: row.recipient,
    subject: row.subject,
    text: row.text,
    html: row.html,
    headers: JSON.parse(row.headers) as Record<string, string>,
    messageId: `<${row.message_id}@${domainOf(config.mailFrom)}>`,
    date: new Date(row.created_at),
  };
}

/**
 * Through the SMTP server of SMTP_URL, one connection per mail; without it, each mail is written
 * as an RFC 5322 file in MAIL_DIR and its path logged, so that a server needs no mail service to run.
 */
export function createMailTransport(config: Config, log: FastifyBaseLogger): MailTransport {
  if (config.smtpUrl) {
    // Bounded: a send holds its row, and on PostgreSQL a database connection, until it ends.
    const smtp = nodemailer.createTransport({
      url: config.smtpUrl,
      connectionTimeout: 30_000,
      greetingTimeout: 30_000,
      socketTimeout: 60_000,
    });
    return {
      async send(row) {
        await smtp.sendMail(messageOf(row, config));
      },
      close: () => smtp.close(),
    };
  }
  const files = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    async send(row) {
      const { message } = await files.sendMail(messageOf(row, config));
      await fs.mkdir(config.mailDir, { recursive: true });
      // Named after the mail, so that a mail sent again replaces its file.
      const file = path.join(config.mailDir, `${row.created_at.replace(/[:.]/g, '-')}-${row.message_id}.eml`);
      // Written whole under another name first: whoever reads the folder never finds half a mail.
      await fs.writeFile(`${file}.part`, message as Buffer);
      await fs.rename(`${file}.part`, file);
      log.info({ file, messageId: row.message_id }, 'mail written to a file (SMTP_URL is not set)');
    },
    close: () => files.close(),
  };
}
