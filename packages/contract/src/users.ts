import { z } from 'zod';
import { roleSchema } from './moderation.js';
import { genderSchema, idSchema, isoDateSchema } from './common.js';
import { questionLanguagesSchema, uiLocaleSchema } from './languages.js';

export const MIN_AGE = 13;
export const MAX_AGE = 120;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
export const NAME_MAX_LENGTH = 50;
export const TOPIC_MAX_LENGTH = 50;

export const emailSchema = z.string().trim().toLowerCase().max(254).pipe(z.email('Enter a valid email'));
export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `At least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `At most ${PASSWORD_MAX_LENGTH} characters`);

/**
 * What a name may not hold: control characters (Cc: line breaks, tabs, escapes), invisible
 * formatting characters (Cf: bidirectional overrides such as U+202E, zero-width spaces and
 * joiners, the byte order mark) and the line and paragraph separators (Zl, Zp). A name is shown
 * in mail, feeds and notifications: any of these lets it break lines or pose as other text. A
 * joiner between two pictographs stays, for it makes one emoji of them (a family).
 */
const NAME_FORBIDDEN =
  /(?!(?<=\p{Extended_Pictographic}\uFE0F?)\u200D(?=\p{Extended_Pictographic}))[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;
/**
 * What shows nothing: spaces, those characters, and the fillers that render as blank (Hangul fillers, the blank Braille
 * pattern).
 */
const NAME_INVISIBLE = /[\s\p{Cc}\p{Cf}\p{Z}\u115F\u1160\u2800\u3164\uFFA0]/gu;
export const NAME_REQUIRED = 'Name is required';
export const NAME_HAS_INVISIBLE = 'Use letters and spaces only: no line breaks or invisible characters';

export const firstNameSchema = z
  .string()
  .trim()
  // A name of only invisible characters is as blank as an empty one.
  .refine((name) => name.replace(NAME_INVISIBLE, '') !== '', { message: NAME_REQUIRED, abort: true })
  .refine((name) => !NAME_FORBIDDEN.test(name), { message: NAME_HAS_INVISIBLE, abort: true })
  .max(NAME_MAX_LENGTH, `At most ${NAME_MAX_LENGTH} characters`);

/** Birth dates are checked against the age limits on the server's today. */
export const birthDateSchema = isoDateSchema.refine((value) => {
  const today = new Date().toISOString().slice(0, 10);
  const [y, m, d] = value.split('-').map(Number);
  const [ty, tm, td] = today.split('-').map(Number);
  const age = ty - y - (tm < m || (tm === m && td < d) ? 1 : 0);
  return age >= MIN_AGE && age <= MAX_AGE;
}, `You must be between ${MIN_AGE} and ${MAX_AGE} years old`);

export const quizAnswerSchema = z.object({ question: idSchema, choice: z.number().finite() });

export const registerBodySchema = z.object({
  firstName: firstNameSchema,
  birthDate: birthDateSchema,
  gender: genderSchema,
  livingIn: idSchema,
  email: emailSchema,
  password: passwordSchema,
  quiz: z.array(quizAnswerSchema).max(50).optional(),
});
export type RegisterBody = z.input<typeof registerBodySchema>;

export const loginBodySchema = z
  .object({
    username: z.string().max(254).optional(),
    email: z.string().max(254).optional(),
    password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
  })
  .refine((body) => Boolean(body.username || body.email), { path: ['email'], message: 'Email is required' })
  // One email as read from either field: the account looked up and the one its sign-in limits count are the same.
  .transform(({ username, email, password }) => ({ email: (username || email || '').trim().toLowerCase(), password }));
export type LoginBody = z.input<typeof loginBodySchema>;

export const tokenResponseSchema = z.object({ token: z.string() });

/** How long the link that confirms a new email works. */
export const EMAIL_CONFIRM_MINUTES = 30;

export const settingsSchema = z.object({
  /** The address the account has: mail goes there, and signing in takes it. */
  email: z.string(),
  notification: z.boolean(),
  /** A new address asked for and not confirmed yet from the link mailed to it; null when none waits. */
  pending_email: z.string().nullable(),
  /** The language of the interface and of mail (one of UI_LOCALES). */
  language: uiLocaleSchema,
  /** ISO 639-1 codes of the questions to show; null for all (lists are not filtered by it yet). */
  question_languages: z.array(z.string()).nullable(),
});
export type Settings = z.infer<typeof settingsSchema>;

const emptyToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

export const settingsUpdateBodySchema = z.object({
  /** A different address is not used until confirmed from the link mailed to it (`pending_email`). */
  email: emailSchema,
  notification: z.boolean(),
  password: z.preprocess(emptyToUndefined, passwordSchema.optional()),
  /** Needed when the email or the password changes. */
  current_password: z.preprocess(emptyToUndefined, z.string().max(PASSWORD_MAX_LENGTH).optional()),
  /** Absent: unchanged. Needs no current password. */
  language: uiLocaleSchema.optional(),
  /** Absent: unchanged; null: all. Needs no current password. */
  question_languages: questionLanguagesSchema.optional(),
});
export type SettingsUpdateBody = z.input<typeof settingsUpdateBodySchema>;

/** POST api.confirmEmail: the token of the link mailed to a new address (public: the link is the proof). */
export const emailConfirmBodySchema = z.object({ token: z.string().min(1, 'The link has no token').max(200) });
export type EmailConfirmBody = z.input<typeof emailConfirmBodySchema>;

/** The account's email now. */
export const emailConfirmAnswerSchema = z.object({ email: z.string() });
export type EmailConfirmAnswer = z.infer<typeof emailConfirmAnswerSchema>;

export const accountSchema = z.object({
  id: z.number().int(),
  role: roleSchema,
  first_name: z.string(),
  birthdate: z.string(),
  country: z.number().int(),
  favorite_category: z.number().int().nullable(),
  favorite_topic: z.string().nullable(),
  gender: genderSchema,
});
export type Account = z.infer<typeof accountSchema>;

const emptyToNull = (value: unknown) => (value === '' || value === undefined ? null : value);

export const accountUpdateBodySchema = z.object({
  firstName: firstNameSchema,
  birthDate: birthDateSchema,
  livingIn: idSchema,
  favoriteCategory: z.preprocess(emptyToNull, idSchema.nullable()),
  favoriteTopic: z.preprocess(
    emptyToNull,
    z.string().trim().max(TOPIC_MAX_LENGTH, `At most ${TOPIC_MAX_LENGTH} characters`).nullable(),
  ),
});
export type AccountUpdateBody = z.input<typeof accountUpdateBodySchema>;
