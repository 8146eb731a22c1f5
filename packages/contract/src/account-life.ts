import { z } from 'zod';
import { genderSchema } from './common.js';
import { categorySchema, choicesSchema, questionTypeSchema, resultSchema } from './questions.js';
import { emailSchema, passwordSchema, settingsSchema } from './users.js';

/** How long a forgotten-password link works. */
export const PASSWORD_RESET_MINUTES = 30;

/** POST api.passwordReset: the address to send a link to, if an account has it. */
export const passwordResetBodySchema = z.object({ email: emailSchema });
export type PasswordResetBody = z.input<typeof passwordResetBodySchema>;

/** The same answer whether or not an account has the address. */
export const passwordResetAnswerSchema = z.object({ message: z.string() });

/** POST api.passwordResetConfirm: the link's token and the new password; answered with a token that signs in. */
export const passwordResetConfirmBodySchema = z.object({
  token: z.string().min(1, 'The link has no token').max(200),
  password: passwordSchema,
});
export type PasswordResetConfirmBody = z.input<typeof passwordResetConfirmBodySchema>;

/** POST api.deleteAccount: the password, asked again. Answered with 204. */
export const deleteAccountBodySchema = z.object({ password: z.string().min(1, 'Password is required').max(200) });
export type DeleteAccountBody = z.input<typeof deleteAccountBodySchema>;

const person = z.object({ id: z.number().int(), name: z.string() });
/** Another's question's title; null while moderation withholds the question, as every screen leaves it out. */
const withheldTitle = z.string().nullable();

/**
 * GET api.exportAccount: everything stored about the caller, as a JSON attachment. Never a hash
 * of a password or token: sessions are listed by when they began and were last used.
 */
export const accountExportSchema = z.object({
  exported_at: z.string(),
  account: z.object({
    id: z.number().int(),
    email: z.string(),
    first_name: z.string(),
    birthdate: z.string(),
    gender: genderSchema,
    country: z.object({ id: z.number().int(), name: z.string() }),
    favorite_category: categorySchema.nullable(),
    favorite_topic: z.string().nullable(),
    created_at: z.string(),
  }),
  settings: settingsSchema.pick({ email: true, notification: true, language: true, question_languages: true }),
  /** The questions the person asked, oldest first, with their results now. */
  questions: z.array(
    z.object({
      id: z.number().int(),
      type: questionTypeSchema,
      title: z.string(),
      language: z.string(),
      category: categorySchema.nullable(),
      choices: choicesSchema,
      tags: z.array(z.string()),
      published_at: z.string(),
      like_count: z.number().int(),
      result: resultSchema,
    }),
  ),
  /** Every answer the person gave, oldest first. */
  votes: z.array(
    z.object({
      question: z.number().int(),
      question_title: withheldTitle,
      choice: z.number(),
      created_at: z.string(),
    }),
  ),
  likes: z.array(z.object({ question: z.number().int(), question_title: withheldTitle, created_at: z.string() })),
  /** The questions the person hid (passed). */
  hidden: z.array(z.object({ question: z.number().int(), question_title: withheldTitle })),
  following: z.array(person.extend({ since: z.string() })),
  followers: z.array(person.extend({ since: z.string() })),
  /** The people the person blocked. */
  blocked: z.array(person.extend({ since: z.string() })),
  notifications: z.array(
    z.object({
      id: z.number().int(),
      kind: z.string(),
      created_at: z.string(),
      read_at: z.string().nullable(),
      /** When a notification mail listed it; null when none did yet. */
      mailed_at: z.string().nullable(),
      question: z.number().int().nullable(),
      count: z.number().int().nullable(),
      actors: z.array(person),
    }),
  ),
  /** Where the person is signed in: when each session began and was last used. */
  sessions: z.array(z.object({ created_at: z.string(), last_used_at: z.string() })),
  /** Links to choose a new password that were asked for and can still be used (never the link itself). */
  password_reset_links: z.array(z.object({ requested_at: z.string(), expires_at: z.string() })),
  /**
   * Mail written for the person (never for an earlier owner of their address) not yet handed to the mail service: a
   * notice, a link, notifications.
   */
  mail_waiting: z.array(z.object({ subject: z.string(), queued_at: z.string(), given_up_at: z.string().nullable() })),
  /**
   * The devices push is on for (push.ts): the push service's address for each, and when it was subscribed; never its
   * keys.
   */
  push_subscriptions: z.array(z.object({ endpoint: z.string(), created_at: z.string() })),
});
export type AccountExport = z.infer<typeof accountExportSchema>;
