import {
  answerBodySchema,
  api,
  blockedSchema,
  connectedSchema,
  likedSchema,
  questionSchema,
  settingsSchema,
  settingsUpdateBodySchema,
} from '@pollscope/contract';
import { sql } from 'kysely';
import type { AddressObject, ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask, signUp, createTestApp, type TestContext, type TestUser } from '../../test/helper.js';
import { startMailServer, type TestMailServer } from '../../test/mail-server.js';
import { mailDueNotifications } from './mail.js';
import { notifyLikes } from './notify.js';

/** Short, so that a mail held back waits for it only a few seconds. */
const BATCH_SECONDS = 2;
const PUBLIC_URL = 'https://pollscope.example';

let mailbox: TestMailServer;
let ctx: TestContext;
beforeAll(async () => {
  mailbox = await startMailServer();
  ctx = await createTestApp({ smtpUrl: mailbox.url, publicUrl: PUBLIC_URL, emailBatchSeconds: BATCH_SECONDS });
});
afterAll(async () => {
  await ctx?.close();
  await mailbox?.stop();
});

const mailTo = (user: TestUser) =>
  mailbox.received.filter((mail) => (mail.to as AddressObject).value[0].address === user.email.toLowerCase());
/** The person's `count`th mail, once it has come. */
const waitForMail = (user: TestUser, count = 1) =>
  vi.waitFor(
    () => {
      expect(mailTo(user).length).toBeGreaterThanOrEqual(count);
      return mailTo(user)[count - 1];
    },
    { timeout: 15_000, interval: 50 },
  );
/**
 * A look for mail to queue past the batch window of every mail sent so far, then a round of the
 * outbox's worker, for a mail that must not come: one due would be queued and sent in them.
 */
const afterSomeLooks = async () => {
  await ctx.app.notificationMail.round(new Date(Date.now() + (BATCH_SECONDS + 1) * 1000));
  await ctx.app.mail.round();
};
/**
 * Until a mailing waits for the lock of a transaction not yet committed. On PostgreSQL its backend
 * waits on the row's lock; SQLite's one connection is the transaction's until it ends, so a
 * mailing waits for it from its first statement.
 */
const untilWaitingOnALock = async () => {
  if (ctx.database.dialect !== 'postgres') return;
  const waiting = sql<{
    count: number;
  }>`select count(*)::int as count from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`;
  await vi.waitFor(async () => expect((await waiting.execute(ctx.database.db)).rows[0].count).toBeGreaterThan(0), {
    timeout: 10_000,
    interval: 10,
  });
};
/** A header as it was sent, unfolded (RFC 5322): mailparser reads the List-* headers into an object of its own. */
const header = (mail: ParsedMail, name: string) =>
  mail.headerLines.find((line) => line.key === name)?.line.replace(/\r\n/g, '');
/** The path of the mail's unsubscribe link. */
const unsubscribePath = (mail: ParsedMail) => {
  const url = new URL(/^List-Unsubscribe: <(.+)>$/.exec(header(mail, 'list-unsubscribe')!)![1]);
  return `${url.pathname}${url.search}`;
};
const person = (firstName: string) => signUp(ctx, { firstName });
const unmailedOf = async (user: TestUser) =>
  (
    await ctx.database.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', user.id)
      .where('mailed_at', 'is', null)
      .execute()
  ).length;
const follow = (follower: TestUser, followee: TestUser) => follower.api.post(api.follow(followee.id), connectedSchema);
const settingsOf = (user: TestUser) => user.api.get(api.settings, settingsSchema);
const setNotification = (user: TestUser, notification: boolean) =>
  user.api.post(api.settings, settingsUpdateBodySchema, { email: user.email, notification }, settingsSchema);

describe('notification mail', () => {
  it('mails a follow once, with the follower’s name, a link to the notifications and one-click unsubscribing', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    await follow(bob, ann);
    const mail = await waitForMail(ann);
    expect(mail.subject).toBe('Bob followed you');
    expect(mail.text).toContain('Bob followed you');
    expect(mail.text).toContain(`See your notifications: ${PUBLIC_URL}/notifications`);
    expect(mail.html).toContain(`href="${PUBLIC_URL}/notifications"`);
    expect(header(mail, 'list-unsubscribe')).toMatch(
      new RegExp(`^List-Unsubscribe: <${PUBLIC_URL}/api/unsubscribe/\\?token=[\\w-]{20,}>$`),
    );
    expect(header(mail, 'list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(unsubscribePath(mail)).not.toContain(ann.token);
    await afterSomeLooks();
    expect(mailTo(ann)).toHaveLength(1);
  });

  it('gathers what comes within EMAIL_BATCH_SECONDS of the last mail into one mail after it', async () => {
    const author = await person('Ann');
    const question = await ask(author, { question: 'Remote work or the office: where do you get more done?' });
    await follow(await person('Bob'), author);
    const first = await waitForMail(author);

    for (const name of ['Cat', 'Dan', 'Eve']) await (await person(name)).api.post(api.like(question), likedSchema);
    await follow(await person('Fay'), author);
    await (await person('Gus')).api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);

    const second = await waitForMail(author, 2);
    expect(second.date!.getTime() - first.date!.getTime()).toBeGreaterThanOrEqual(BATCH_SECONDS * 1000);
    const qid = `QID${String(question).padStart(3, '0')}`;
    expect(second.subject).toBe('3 new notifications on Pollscope');
    expect(second.text).toContain(`Eve and 2 others liked ${qid} 'Remote work or the office: where do you…'`);
    expect(second.text).toContain('Fay followed you');
    expect(second.text).toContain(`Your question ${qid} 'Remote work or the office: where do you…' reached 1 vote`);
    expect(second.text).not.toContain('Bob');
    await afterSomeLooks();
    expect(mailTo(author)).toHaveLength(2);
  });

  it('is written in the recipient’s language with its plurals, whatever the likers’: German for a German author', async () => {
    const author = await person('Anna');
    await ctx.database.db.updateTable('users').set({ language: 'de' }).where('id', '=', author.id).execute();
    const question = await ask(author, { question: 'Remote work or the office: where do you get more done?' });
    // Off while the others act, so that everything comes in one mail.
    await setNotification(author, false);
    for (const [name, language] of [
      ['Cat', 'en'],
      ['Dan', 'fr'],
      ['Eve', 'ja'],
    ] as const) {
      const liker = await person(name);
      await ctx.database.db.updateTable('users').set({ language }).where('id', '=', liker.id).execute();
      await liker.api.post(api.like(question), likedSchema);
    }
    await (await person('Gus')).api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
    await setNotification(author, true);

    const mail = await waitForMail(author);
    const qid = `QID${String(question).padStart(3, '0')}`;
    expect(mail.subject).toBe('2 neue Benachrichtigungen auf Pollscope');
    expect(mail.text).toContain('Was auf Pollscope passiert ist');
    expect(mail.text).toContain(
      `Eve und 2 weiteren Personen gefällt deine Frage ${qid} „Remote work or the office: where do you…“`,
    );
    expect(mail.text).toContain(`Deine Frage ${qid} „Remote work or the office: where do you…“ hat 1 Stimme erreicht`);
    expect(mail.text).toContain(`Deine Benachrichtigungen ansehen: ${PUBLIC_URL}/notifications`);
    expect(mail.text).toContain('Pollscope. Du erhältst diese E-Mail, weil Benachrichtigungen per E-Mail');
    expect(mail.html).toMatch(/<html lang="de"/);
    expect(mail.text).not.toMatch(/liked|others|notifications on/);

    // Its unsubscribe page speaks German too.
    const page = await ctx.app.inject({ method: 'GET', url: unsubscribePath(mail) });
    expect(page.body).toMatch(/<html lang="de"/);
    expect(page.body).toContain('<form method="post"><button type="submit">Abbestellen</button></form>');
  });

  it('mails someone who joins a like already mailed, and nothing of what was read', async () => {
    const author = await person('Ann');
    const question = await ask(author);
    await (await person('Bob')).api.post(api.like(question), likedSchema);
    expect((await waitForMail(author)).subject).toMatch(/^Bob liked QID\d+ 'Cats or dogs\?'$/);

    await (await person('Cat')).api.post(api.like(question), likedSchema);
    expect((await waitForMail(author, 2)).subject).toMatch(/^Cat and Bob liked QID\d+ 'Cats or dogs\?'$/);

    await author.api.raw('POST', api.notificationsRead);
    await follow(await person('Dan'), author);
    expect((await waitForMail(author, 3)).text).not.toContain('liked');
  });

  it('mails a like that joins while the mail is being written', async () => {
    const author = await person('Ann');
    const question = await ask(author);
    const cat = await person('Cat');
    // Ann mailed "an hour from now": the server's own looks for mail find her due only after then, so Bob's like is
    // still to mail when Cat's joins it, and this test's look, past that hour, is the one that mails them.
    const mailedAt = new Date(Date.now() + 3_600_000);
    await ctx.database.db
      .updateTable('users')
      .set({ notifications_mailed_at: mailedAt.toISOString() })
      .where('id', '=', author.id)
      .execute();
    await (await person('Bob')).api.post(api.like(question), likedSchema);
    // Cat's like is written, not yet committed, while Ann's mail is being written.
    let join!: () => void;
    let commit!: () => void;
    const joined = new Promise<void>((resolve) => (join = resolve));
    const committing = new Promise<void>((resolve) => (commit = resolve));
    const like = ctx.database.db.transaction().execute(async (trx) => {
      await notifyLikes(trx, [{ likerId: cat.id, questionId: question }]);
      join();
      await committing;
    });
    await joined;
    try {
      const mailing = mailDueNotifications(
        ctx.database.db,
        ctx.database.dialect,
        ctx.config,
        new Date(mailedAt.getTime() + (BATCH_SECONDS + 1) * 1000),
      );
      await untilWaitingOnALock();
      commit();
      expect(await Promise.all([like, mailing])).toEqual([undefined, 1]);
    } finally {
      // Whatever failed, the transaction ends, and the app can close.
      commit();
    }
    await vi.waitFor(
      () =>
        expect(mailTo(author).map((mail) => mail.subject)).toContainEqual(
          expect.stringMatching(/^Cat and Bob liked QID\d+/),
        ),
      {
        timeout: 15_000,
        interval: 50,
      },
    );
  });

  it('mails nobody whose notification mail is off', async () => {
    const [ann, bob] = [await person('Ann'), await person('Bob')];
    await setNotification(ann, false);
    await follow(bob, ann);
    await afterSomeLooks();
    expect(mailTo(ann)).toHaveLength(0);
  });

  it('never mails what someone blocked did', async () => {
    const author = await person('Ann');
    const question = await ask(author);
    const [bob, cat] = [await person('Bob'), await person('Cat')];
    // Off while Bob acts, so that nothing is mailed before the block.
    await setNotification(author, false);
    await follow(bob, author);
    await bob.api.post(api.like(question), likedSchema);
    await author.api.post(api.ban(bob.id), blockedSchema);
    await setNotification(author, true);
    await afterSomeLooks();
    expect(mailTo(author)).toHaveLength(0);
    // Looked at once: what Ann does not see is not read again at every look.
    expect(await unmailedOf(author)).toBe(0);

    await cat.api.post(api.like(question), likedSchema);
    const mail = await waitForMail(author);
    expect(mail.text).toMatch(/Cat liked QID\d+ 'Cats or dogs\?'/);
    expect(mail.text).not.toContain('Bob');
  });
});

describe('unsubscribing', () => {
  let ann: TestUser;
  let path: string;
  beforeAll(async () => {
    ann = await person('Ann');
    await follow(await person('Bob'), ann);
    path = unsubscribePath(await waitForMail(ann));
  });

  it('shows a page with a button on GET, and unsubscribes nobody', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: path });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toMatch(/<form method="post"><button type="submit">Unsubscribe<\/button><\/form>/);
    expect(await settingsOf(ann)).toMatchObject({ notification: true });
  });

  it('turns notification mail off on the mail client’s one-click POST, without signing in', async () => {
    const reply = await ctx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toContain('Unsubscribed');
    expect(await settingsOf(ann)).toMatchObject({ notification: false });
    await follow(await person('Cat'), ann);
    await afterSomeLooks();
    expect(mailTo(ann)).toHaveLength(1);
  });

  it('answers 404 to an unknown token, changing nothing', async () => {
    const bob = await person('Bob');
    for (const method of ['GET', 'POST'] as const) {
      const reply = await ctx.app.inject({ method, url: api.unsubscribe('not-a-token') });
      expect(reply.statusCode).toBe(404);
      expect(reply.json()).toEqual({ message: 'This unsubscribe link is not known' });
    }
    expect(await settingsOf(bob)).toMatchObject({ notification: true });
  });
});
