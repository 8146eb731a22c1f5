import { displayId, type ModerationAction, type NotificationModeration, type UiLocale } from '@pollscope/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { message, type MessageId } from '../../i18n/messages.js';
import { momentInWords, queueMail, recipientLocale, renderMail } from '../mail/index.js';

/** The person a moderator acted on, and their question when the action was on one. */
export interface Concerned {
  id: number;
  email: string;
  first_name: string;
  question: { id: number; title: string } | null;
}

/** Each action's title, and its first paragraph about a question and about an account. */
const wordings: Record<ModerationAction, { title: MessageId; question: MessageId; account: MessageId }> = {
  dismiss: {
    title: 'mail.moderation.dismiss.title',
    question: 'mail.moderation.dismiss.question',
    account: 'mail.moderation.dismiss.account',
  },
  // A removal and a restoring act on a question only (actions.ts).
  remove: {
    title: 'mail.moderation.remove.title',
    question: 'mail.moderation.remove.question',
    account: 'mail.moderation.remove.question',
  },
  restore: {
    title: 'mail.moderation.restore.title',
    question: 'mail.moderation.restore.question',
    account: 'mail.moderation.restore.question',
  },
  // A suspension acts on an account only; its paragraph is chosen by its end (below).
  suspend: {
    title: 'mail.moderation.suspend.title',
    question: 'mail.moderation.suspend.noEnd',
    account: 'mail.moderation.suspend.noEnd',
  },
  unsuspend: {
    title: 'mail.moderation.unsuspend.title',
    question: 'mail.moderation.unsuspend.account',
    account: 'mail.moderation.unsuspend.account',
  },
  // A warning on a question under review also shows it again (actions.ts), so only an account's says nothing changes.
  warn: {
    title: 'mail.moderation.warn.title',
    question: 'mail.moderation.warn.question',
    account: 'mail.moderation.warn.account',
  },
};

/** The mail's title and first paragraph, in `locale`. */
function wording(
  locale: UiLocale,
  action: ModerationAction,
  question: string | null,
  until: string | null,
): { title: string; what: string } {
  const ids = wordings[action];
  const title = message(locale, ids.title);
  if (action === 'suspend' && until !== null)
    return { title, what: message(locale, 'mail.moderation.suspend.until', { until: momentInWords(locale, until) }) };
  return { title, what: message(locale, question === null ? ids.account : ids.question, { question: question ?? '' }) };
}

/**
 * Queues the mail that tells the person what a moderator did and why, in the action's transaction and in the person's
 * `language`: sent whatever their notification setting, as the bell may be out of their reach (a suspended person
 * cannot sign in).
 */
export async function queueModerationMail(
  trx: Db,
  config: Pick<Config, 'publicUrl'>,
  person: Concerned,
  moderation: NotificationModeration,
): Promise<void> {
  const locale = await recipientLocale(trx, person.id);
  const question =
    person.question &&
    message(locale, 'mail.questionName', { qid: displayId('QID', person.question.id), title: person.question.title });
  const { title, what } = wording(locale, moderation.action, question, moderation.until);
  await queueMail(trx, {
    to: person.email,
    userId: person.id,
    subject: message(locale, 'mail.moderation.subject', { title }),
    ...renderMail({
      locale,
      title,
      paragraphs: [
        message(locale, 'mail.greeting', { name: person.first_name }),
        what,
        message(locale, 'mail.moderation.reason', { reason: moderation.reason }),
      ],
      action: { label: message(locale, 'mail.moderation.action'), url: `${config.publicUrl}/rules` },
      footer: message(locale, 'mail.moderation.footer'),
    }),
  });
}
