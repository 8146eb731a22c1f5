import { simpleParser, type ParsedMail } from 'mailparser';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helper.js';
import { startServer } from '../../test/server-process.js';
import { queueMail, renderMail, type Mail } from './index.js';
import { markFailed } from '../outbox/index.js';
import { mailOutbox, RETRY_DELAYS_MINUTES } from './outbox.js';
import { startMailServer, type TestMailServer } from '../../test/mail-server.js';

let mailbox: TestMailServer;
let ctx: TestContext;

beforeAll(async () => {
  mailbox = await startMailServer();
  ctx = await createTestApp({ smtpUrl: mailbox.url, mailFrom: 'Pollscope <no-reply@pollscope.example>' });
});
afterAll(async () => {
  await ctx?.close();
  await mailbox?.stop();
});

let made = 0;
/** A mail of the site's template, with a subject of its own. */
function aMail(to = 'reader@example.com'): Mail {
  made += 1;
  const content = renderMail({
    title: `Your question <${made}> got answers`,
    paragraphs: ['Ten people answered "Cats or dogs?".', 'See how they answered.'],
    action: { label: 'See the results', url: 'http://localhost:3000/question/1?from=mail&x=1' },
    footer: 'You get this mail because you ask questions on Pollscope.',
  });
  return {
    to,
    subject: `Answers ${made}`,
    ...content,
    headers: {
      'List-Unsubscribe': '<http://localhost:3000/api/unsubscribe/?token=abc>',
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  };
}

/** Queues the mail in a transaction of its own, as a write would, and returns its Message-ID. */
async function queue(mail: Mail): Promise<string> {
  const id = await ctx.database.db.transaction().execute((trx) => queueMail(trx, mail));
  return `<${id}@pollscope.example>`;
}

/** A header as it was sent: mailparser reads the List-* headers into an object of its own. */
const header = (mail: ParsedMail, name: string) => mail.headerLines.find((line) => line.key === name)?.line;
const arrived = (messageId: string) => mailbox.received.filter((mail) => mail.messageId === messageId);
const waitForArrival = (messageId: string) =>
  vi.waitFor(() => expect(arrived(messageId)).toHaveLength(1), { timeout: 10_000, interval: 50 });
/** One more round of the outbox's worker, for a mail that must not come: one due would be sent in it. */
const afterARound = () => ctx.app.mail.round();

describe('the outbox, sent through SMTP', () => {
  it('delivers a queued mail with its subject, sender, text and HTML parts, headers and Message-ID', async () => {
    const mail = aMail();
    const messageId = await queue(mail);
    await waitForArrival(messageId);
    const [received] = arrived(messageId);
    expect(received.subject).toBe(mail.subject);
    expect(received.from?.value).toEqual([{ name: 'Pollscope', address: 'no-reply@pollscope.example' }]);
    expect(received.text).toContain('Ten people answered "Cats or dogs?".');
    expect(received.text).toContain('See the results: http://localhost:3000/question/1?from=mail&x=1');
    expect(received.html).toContain('Your question &lt;1&gt; got answers');
    expect(received.html).toContain('href="http://localhost:3000/question/1?from=mail&amp;x=1"');
    expect(received.html).toContain('<meta name="color-scheme" content="light dark">');
    expect(header(received, 'list-unsubscribe')).toBe(
      'List-Unsubscribe: <http://localhost:3000/api/unsubscribe/?token=abc>',
    );
    expect(header(received, 'list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  });

  it('sends nothing of a transaction rolled back', async () => {
    const rolledBack = aMail();
    await expect(
      ctx.database.db.transaction().execute(async (trx) => {
        await queueMail(trx, rolledBack);
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    const committed = await queue(aMail());
    await waitForArrival(committed);
    await afterARound();
    expect(mailbox.received.map((mail) => mail.subject)).not.toContain(rolledBack.subject);
  });

  it('keeps a mail while the mail server is down, and sends it once when it is back', async () => {
    await mailbox.stop();
    const messageId = await queue(aMail());
    const row = () =>
      ctx.database.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('message_id', '=', messageId.slice(1, messageId.indexOf('@')))
        .executeTakeFirstOrThrow();
    await vi.waitFor(async () => expect((await row()).attempts).toBe(1), { timeout: 10_000, interval: 50 });
    const failed = await row();
    expect(failed.last_error).toMatch(/ECONNREFUSED/);
    expect(Date.parse(failed.due_at) - Date.now()).toBeGreaterThan(50_000);

    await mailbox.start();
    await afterARound();
    expect(arrived(messageId)).toHaveLength(0);
    // The minute of the first retry has passed.
    await ctx.database.db
      .updateTable('mail_outbox')
      .set({ due_at: new Date().toISOString() })
      .where('id', '=', failed.id)
      .execute();
    await waitForArrival(messageId);
    await afterARound();
    expect(arrived(messageId)).toHaveLength(1);
  });

  it('retries for more than a day, then gives up', async () => {
    // Queued for a mailbox that refuses, failing at each retry as soon as it is due.
    const messageId = await ctx.database.db.transaction().execute(async (trx) => {
      const id = await queueMail(trx, aMail());
      await trx
        .updateTable('mail_outbox')
        .set({ due_at: '9999-12-31T00:00:00.000Z' })
        .where('message_id', '=', id)
        .execute();
      return id;
    });
    const first = new Date();
    let now = first;
    for (let attempt = 0; attempt <= RETRY_DELAYS_MINUTES.length; attempt += 1) {
      const row = await ctx.database.db
        .selectFrom('mail_outbox')
        .selectAll()
        .where('message_id', '=', messageId)
        .executeTakeFirstOrThrow();
      expect(row.given_up_at).toBeNull();
      const retryAt = await markFailed(ctx.database.db, mailOutbox, row, '550 mailbox unavailable', now);
      if (retryAt) now = new Date(retryAt);
    }
    const row = await ctx.database.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('message_id', '=', messageId)
      .executeTakeFirstOrThrow();
    expect(row.given_up_at).not.toBeNull();
    expect(row.attempts).toBe(RETRY_DELAYS_MINUTES.length + 1);
    expect(now.getTime() - first.getTime()).toBeGreaterThan(24 * 3600_000);
  });
});

describe('without SMTP_URL', () => {
  let files: TestContext;
  let mailDir: string;
  beforeAll(async () => {
    mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-mail-'));
    files = await createTestApp({ smtpUrl: null, mailDir });
  });
  afterAll(async () => {
    await files?.close();
    fs.rmSync(mailDir, { recursive: true, force: true });
  });

  it('writes each mail as an .eml file that reads as the mail', async () => {
    const mail = aMail('someone@example.com');
    const id = await files.database.db.transaction().execute((trx) => queueMail(trx, mail));
    const file = await vi.waitFor(
      () => {
        const [name] = fs.readdirSync(mailDir);
        expect(name).toMatch(/\.eml$/);
        return path.join(mailDir, name);
      },
      { timeout: 10_000, interval: 50 },
    );
    const parsed = await simpleParser(fs.readFileSync(file));
    expect(parsed.messageId).toBe(`<${id}@localhost>`);
    expect(parsed.subject).toBe(mail.subject);
    expect(parsed.from?.value).toEqual([{ name: 'Pollscope', address: 'no-reply@localhost' }]);
    expect(parsed.to).toMatchObject({ text: 'someone@example.com' });
    expect(parsed.text).toBe(mail.text);
    expect(parsed.html).toBe(mail.html);
    expect(header(parsed, 'list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
  });
});

describe('SMTP_URL', () => {
  /** What the server says when it stops at start, or that it started. */
  const startWith = (smtpUrl: string) =>
    startServer(path.join(os.tmpdir(), 'pollscope-never-opened.db'), { SMTP_URL: smtpUrl }).then(
      async (server) => {
        await server.stop();
        return 'started';
      },
      (error: Error) => error.message,
    );

  it('stops the server at start when it is not an smtp:// or smtps:// URL, without showing its password', async () => {
    const notAUrl = await startWith('smtp//pollscope:hunter2@mail.example.com');
    expect(notAUrl).toMatch(
      /SMTP_URL must be smtp:\/\/user:password@host:port or smtps:\/\/user:password@host:port; it is not a URL/,
    );
    expect(notAUrl).not.toContain('hunter2');
    expect(await startWith('http://mail.example.com')).toMatch(/SMTP_URL must be .*; it starts with http:\/\//);
  });
});
