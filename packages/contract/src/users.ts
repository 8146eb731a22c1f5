import { z } from 'zod';
import { genderSchema, idSchema, isoDateSchema } from './common.js';

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
const firstNameSchema = z.string().trim().min(1, 'Name is required').max(NAME_MAX_LENGTH, `At most ${NAME_MAX_LENGTH} characters`);

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
  .refine((body) => Boolean(body.username || body.email), { path: ['email'], message: 'Email is required' });
export type LoginBody = z.input<typeof loginBodySchema>;

export const tokenResponseSchema = z.object({ token: z.string() });

export const settingsSchema = z.object({ email: z.string(), notification: z.boolean() });
export type Settings = z.infer<typeof settingsSchema>;

export const settingsUpdateBodySchema = z.object({
  email: emailSchema,
  notification: z.boolean(),
  password: z.preprocess((value) => (value === '' || value === null ? undefined : value), passwordSchema.optional()),
});
export type SettingsUpdateBody = z.input<typeof settingsUpdateBodySchema>;

export const accountSchema = z.object({
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
  favoriteTopic: z.preprocess(emptyToNull, z.string().trim().max(TOPIC_MAX_LENGTH, `At most ${TOPIC_MAX_LENGTH} characters`).nullable()),
});
export type AccountUpdateBody = z.input<typeof accountUpdateBodySchema>;
