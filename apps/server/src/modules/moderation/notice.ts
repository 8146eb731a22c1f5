import { displayId, type ModerationAction, type NotificationModeration } from '@pollscope/contract';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { queueMail, renderMail } from '../mail/index.js';

/** "5 March 2025 at 14:05 UTC": a suspension's end, in words anyone reads the same. */
export function endInWords(until: string): string {
  return `${new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(new Date(until))} UTC`;
}

/** What sign-in answers a suspended person (403): the reason and the end. */
export function suspensionMessage(reason: string, until: string | null): string {
  return `Your account is suspended ${until === null ? 'with no end date' : `until ${endInWords(until)}`}. The moderators' reason: ${reason}`;
}

/** The person a moderator acted on, and their question when the action was on one. */
export interface Concerned {
  id: number;
  email: string;
  first_name: string;
  question: { id: number; title: string } | null;
}

/** The mail's title and first paragraph for each action. */
function wording(
  action: ModerationAction,
  question: string | null,
  until: string | null,
): { title: string; what: string } {
  const subject = question === null ? 'your account' : `your question ${question}`;
  switch (action) {
    case 'dismiss':
      return {
        title: 'Reports were looked at',
        what: `A moderator looked at reports about ${subject} and took no action.`,
      };
    case 'remove':
      return {
        title: 'Your question was removed',
        what: `A moderator removed ${subject}. Nobody else sees it now; you still see it, marked removed.`,
      };
    case 'restore':
      return {
        title: 'Your question is shown again',
        what: `A moderator restored ${subject}: everyone sees it again.`,
      };
    case 'suspend':
      return {
        title: 'Your account is suspended',
        what: `A moderator suspended your account ${until === null ? 'with no end date' : `until ${endInWords(until)}`}. Until then you cannot sign in, and nobody sees your questions or your profile.`,
      };
    case 'unsuspend':
      return {
        title: 'Your account is no longer suspended',
        what: 'A moderator ended the suspension of your account: you can sign in again.',
      };
    case 'warn':
      return {
        title: 'A warning from the moderators',
        // A warning on a question under review also shows it again (actions.ts), so only an account's says nothing changes.
        what:
          question === null
            ? `A moderator warned you about ${subject}. Nothing else changes, but please keep to the community rules.`
            : `A moderator warned you about ${subject}. Please keep to the community rules.`,
      };
  }
}

/**
 * Queues the mail that tells the person what a moderator did and why, in the action's
 * transaction: sent whatever their notification setting, as the bell may be out of their reach
 * (a suspended person cannot sign in).
 */
export async function queueModerationMail(
  trx: Db,
  config: Pick<Config, 'publicUrl'>,
  person: Concerned,
  moderation: NotificationModeration,
): Promise<void> {
  const question = person.question && `${displayId('QID', person.question.id)} '${person.question.title}'`;
  const { title, what } = wording(moderation.action, question, moderation.until);
  await queueMail(trx, {
    to: person.email,
    userId: person.id,
    subject: `${title} · Pollscope`,
    ...renderMail({
      title,
      paragraphs: [`Hi ${person.first_name},`, what, `The moderators' reason: ${moderation.reason}`],
      action: { label: 'Read the community rules', url: `${config.publicUrl}/rules` },
      footer:
        'You get this mail because a moderator acted on your Pollscope account or question. It is sent whatever your notification settings say.',
    }),
  });
}
