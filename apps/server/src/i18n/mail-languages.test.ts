import type { UiLocale } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/index.js';
import { createTestApp, signUp, type TestContext, type TestUser } from '../test/helper.js';
import { requestEmailChange } from '../modules/auth/email-change.js';
import { queueChangeNotice } from '../modules/auth/notices.js';
import { queueModerationMail } from '../modules/moderation/notice.js';
import { momentInWords } from '../modules/mail/recipient.js';

let ctx: TestContext;
const PUBLIC_URL = 'https://pollscope.example';
beforeAll(async () => {
  ctx = await createTestApp({ publicUrl: PUBLIC_URL });
});
afterAll(() => ctx?.close());

const speaking = async (language: UiLocale, firstName: string): Promise<TestUser> => {
  const person = await signUp(ctx, { firstName });
  await ctx.database.db.updateTable('users').set({ language }).where('id', '=', person.id).execute();
  return person;
};

/** The mail `queue` writes to `to`, read in its transaction, which is then rolled back: no mail worker sends it. */
async function queued(to: string, queue: (trx: Db) => Promise<void>) {
  let mail: { subject: string; text: string; html: string } | undefined;
  await ctx.database.db
    .transaction()
    .execute(async (trx) => {
      await queue(trx);
      mail = await trx
        .selectFrom('mail_outbox')
        .select(['subject', 'text', 'html'])
        .where('recipient', '=', to.toLowerCase())
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      throw new Error('rolled back');
    })
    .catch((error: unknown) => {
      if ((error as Error).message !== 'rolled back') throw error;
    });
  return mail!;
}

describe('mail, in the recipient’s language', () => {
  it('writes dates through Intl in the reader’s language, English as the spec does', () => {
    const at = '2025-03-05T14:05:00.000Z';
    expect(momentInWords('en', at)).toBe('5 March 2025 at 14:05 UTC');
    expect(momentInWords('de', at)).toBe('5. März 2025 um 14:05 UTC');
    expect(momentInWords('fr', at)).toBe('5 mars 2025 à 14:05 UTC');
    expect(momentInWords('ja', at)).toBe('2025年3月5日 14:05 UTC');
  });

  it('tells of a suspension in French, with the end as French writes it and French typography', async () => {
    const zoe = await speaking('fr', 'Zoé');
    const mail = await queued(zoe.email, (trx) =>
      queueModerationMail(
        trx,
        { publicUrl: PUBLIC_URL },
        { id: zoe.id, email: zoe.email, first_name: 'Zoé', question: null },
        { action: 'suspend', reason: 'Spam', until: '2025-03-05T14:05:00.000Z' },
      ),
    );
    expect(mail.subject).toBe('Votre compte est suspendu · Pollscope');
    expect(mail.text).toContain('Bonjour Zoé,');
    expect(mail.text).toContain('Un modérateur a suspendu votre compte jusqu’au 5 mars 2025 à 14:05 UTC.');
    expect(mail.text).toContain('Motif des modérateurs\u00A0: Spam');
    expect(mail.text).toContain(`Lire les règles de la communauté\u00A0: ${PUBLIC_URL}/rules`);
    expect(mail.html).toMatch(/<html lang="fr">/);
    expect(mail.text).not.toMatch(/moderator|suspended/);
  });

  it('tells of a removed question in Arabic, right to left, with the question named as Arabic quotes it', async () => {
    const sami = await speaking('ar', 'Sami');
    const mail = await queued(sami.email, (trx) =>
      queueModerationMail(
        trx,
        { publicUrl: PUBLIC_URL },
        { id: sami.id, email: sami.email, first_name: 'Sami', question: { id: 7, title: 'Tea or coffee?' } },
        { action: 'remove', reason: 'Off topic', until: null },
      ),
    );
    expect(mail.subject).toBe('تم حذف سؤالك · Pollscope');
    expect(mail.text).toContain('حذف أحد المشرفين سؤالك QID007 «Tea or coffee?».');
    expect(mail.html).toMatch(/<html lang="ar" dir="rtl">/);
  });

  it('tells of a new password in Japanese, to the address of a Japanese account', async () => {
    const hana = await speaking('ja', 'Hana');
    const mail = await queued(hana.email, (trx) =>
      queueChangeNotice(
        trx,
        { publicUrl: PUBLIC_URL },
        hana.email,
        'Hana',
        { password: true },
        new Date('2025-03-05T14:05:00Z'),
      ),
    );
    expect(mail.subject).toBe('Pollscopeのパスワードが変更されました');
    expect(mail.text).toContain('Hanaさん');
    expect(mail.text).toContain('2025年3月5日 14:05 UTCに、Pollscopeアカウントのパスワードが変更され');
    expect(mail.text).toContain(`新しいパスワードを設定：${PUBLIC_URL}/forgot-password`);
  });

  it('asks a Spanish account to confirm its new address in Spanish, at the new address', async () => {
    const lucia = await speaking('es', 'Lucía');
    const to = `nueva-${Date.now()}@example.com`;
    const mail = await queued(to, (trx) =>
      requestEmailChange(trx, { publicUrl: PUBLIC_URL }, { id: lucia.id, first_name: 'Lucía' }, to),
    );
    expect(mail.subject).toBe('Confirma tu nuevo correo de Pollscope');
    expect(mail.text).toContain('Hola, Lucía:');
    expect(mail.text).toContain('durante 30 minutos');
  });
});
