import { api, likedSchema } from '@pollscope/contract';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { escapeHtml } from '../../lib/html.js';
import { ask, client, createTestAppWithMail, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { recipientOf, type TestMailServer } from '../../test/mail-server.js';
import { queueChangeNotice } from './notices.js';

let mailbox: TestMailServer;
let ctx: TestContext;
const PUBLIC_URL = 'https://pollscope.example';

beforeAll(async () => {
  // A short batch, so that the notification mail comes within the test's wait.
  ({ ctx, mailbox } = await createTestAppWithMail({ publicUrl: PUBLIC_URL, emailBatchSeconds: 1 }));
});
afterAll(() => ctx?.close());

/** A name as the review sent it, with a bidirectional override, a zero-width space and markup after it. */
const NAME = 'user\n\nURGENT: confirm at http://evil.example/x\u202Egnp.exe\u200B <b>now</b>';
/** How every mail must show it: one line, plain, its markup text. */
const NAME_SHOWN = 'user URGENT: confirm at http://evil.example/xgnp.exe <b>now</b>';
const TITLE = 'Cats\r\nor\u2028dogs\u202E?\u200B\tReply\n\nto win';
const TITLE_SHOWN = 'Cats or dogs? Reply to win';

/**
 * Names and titles are written straight into the database: registration and asking may refuse
 * such text, which must reach no mail either way (older rows, other ways in).
 */
const nameAs = (person: TestUser, name: string) =>
  ctx.database.db.updateTable('users').set({ first_name: name }).where('id', '=', person.id).execute();

const mailsTo = (address: string) => mailbox.received.filter((mail) => recipientOf(mail) === address.toLowerCase());
/** The mail to `address` whose subject `subject` matches, once it has come through the mail server. */
const mailTo = (address: string, subject: RegExp): Promise<ParsedMail> =>
  vi.waitFor(
    () => {
      const mail = mailsTo(address).find((each) => subject.test(each.subject ?? ''));
      expect(
        mail,
        mailsTo(address)
          .map((each) => each.subject)
          .join(' | '),
      ).toBeDefined();
      return mail!;
    },
    { timeout: 15_000, interval: 50 },
  );

/**
 * What a mail shows of `shown`: each on one line of the text part, in an HTML paragraph escaped, and nothing invisible
 * anywhere.
 */
function expectPlain(mail: ParsedMail, shown: string[]) {
  const text = mail.text ?? '';
  const html = typeof mail.html === 'string' ? mail.html : '';
  for (const part of [mail.subject ?? '', text, html]) expect(part).not.toMatch(/[\p{Cf}\r\t]/u);
  expect(mail.subject).not.toMatch(/\n/);
  expect(text.split('\n').filter((line) => /URGENT|Reply|dogs/.test(line))).toSatisfy((lines: string[]) =>
    lines.every((line) => shown.some((each) => line.includes(each))),
  );
  for (const each of shown) {
    expect(text).toContain(each);
    expect(html).toContain(escapeHtml(each));
  }
  expect(html).not.toContain('<b>now</b>');
}

describe('what people type, in every kind of mail', () => {
  it('is one plain line in a notification mail: the name of who liked, the title of the question, the subject', async () => {
    const [author, liker] = [await signUp(ctx), await signUp(ctx)];
    const question = await ask(author, { question: 'Cats or dogs?' });
    await nameAs(liker, NAME);
    await ctx.database.db.updateTable('questions').set({ title: TITLE }).where('id', '=', question).execute();
    await liker.api.post(api.like(question), likedSchema);
    const mail = await mailTo(author.email, /liked/);
    expect(mail.subject).toBe(`${NAME_SHOWN} liked QID${String(question).padStart(3, '0')} '${TITLE_SHOWN}'`);
    expectPlain(mail, [`${NAME_SHOWN} liked`, `'${TITLE_SHOWN}'`]);
  });

  it('is one plain line in the mail to choose a new password, and in the notice of the new password', async () => {
    const person = await signUp(ctx);
    await nameAs(person, NAME);
    expect((await client(ctx.app).raw('POST', api.passwordReset, { email: person.email })).status).toBe(200);
    const reset = await mailTo(person.email, /new Pollscope password/);
    expectPlain(reset, [`Hi ${NAME_SHOWN},`]);

    const token = /reset-password\?token=([\w-]+)/.exec(reset.text ?? '')![1];
    expect(
      (await client(ctx.app).raw('POST', api.passwordResetConfirm, { token, password: 'a brand new horse' })).status,
    ).toBe(200);
    expectPlain(await mailTo(person.email, /password was changed/), [`Hi ${NAME_SHOWN},`]);
  });

  it('is one plain line in the notice of a new email and password to the address the account had', async () => {
    const person = await signUp(ctx);
    await ctx.database.db.transaction().execute((trx) =>
      queueChangeNotice(trx, ctx.config, person.email, NAME, {
        email: `moved-${person.id}@example.com`,
        password: true,
      }),
    );
    expectPlain(await mailTo(person.email, /email and password were changed/), [`Hi ${NAME_SHOWN},`]);
  });
});
