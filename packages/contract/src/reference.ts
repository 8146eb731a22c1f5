import { z } from 'zod';
import { categorySchema, questionSchema } from './questions.js';

/** A country: its ISO 3166-1 numeric code as id, its alpha-2 code (which names it in any language) and its English name. */
export const countrySchema = z.object({ id: z.number().int(), code: z.string().length(2), name: z.string() });
export type Country = z.infer<typeof countrySchema>;
export const countryListSchema = z.array(countrySchema);
export const categoryListSchema = z.array(categorySchema);

export const quizItemSchema = z.object({
  question: questionSchema,
  /** The expected MC key of a strict item, null otherwise. */
  answer: z.number().int().nullable(),
  strict: z.boolean(),
});
export type QuizItem = z.infer<typeof quizItemSchema>;
export const quizListSchema = z.array(quizItemSchema);

export const siteStatsSchema = z.object({
  users: z.number().int(),
  questions: z.number().int(),
  answers: z.number().int(),
  likes: z.number().int(),
  /** URL of a chart the server renders. */
  image: z.string(),
  /** The chart's numbers: answers given on each of the last 30 days (UTC), oldest first. */
  answers_per_day: z.array(z.object({ day: z.string(), answers: z.number().int() })),
});
export type SiteStats = z.infer<typeof siteStatsSchema>;
