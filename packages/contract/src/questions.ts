import { z } from 'zod';
import { idSchema } from './common.js';
import { questionLanguageSchema } from './languages.js';

export const questionTypeSchema = z.enum(['MC', 'RS', 'N']);
export type QuestionType = z.infer<typeof questionTypeSchema>;

export const QUESTION_MAX_LENGTH = 127;
export const TAG_MAX_LENGTH = 20;
export const CHOICE_MAX_LENGTH = 64;
export const MC_MIN_CHOICES = 2;
export const MC_MAX_CHOICES = 4;
export const RATING_SCALE = { min: 1, max: 10 } as const;

export const mcChoiceSchema = z.object({ key: z.number().int(), value: z.string() });
export const rangeSchema = z.object({ min: z.number(), max: z.number() });
export const choicesSchema = z.union([z.array(mcChoiceSchema), rangeSchema]);

export const mcAnswerSchema = z.object({ key: z.number().int(), percent: z.number().int() });
/**
 * A value and its votes; a filtered result of a number question counts ranges of values instead, from `choice` up to
 * `upto`.
 */
export const valueAnswerSchema = z.object({ choice: z.number(), count: z.number().int(), upto: z.number().optional() });

export const resultSchema = z.object({
  count: z.number().int(),
  answers: z.array(z.union([mcAnswerSchema, valueAnswerSchema])),
  /** RS and N only, rounded to 2 decimals. */
  average: z.number().optional(),
  /** Set when a filter matches too few voters to show anything. */
  suppressed: z.boolean().optional(),
});
export type Result = z.infer<typeof resultSchema>;
export type McAnswer = z.infer<typeof mcAnswerSchema>;
export type ValueAnswer = z.infer<typeof valueAnswerSchema>;

export const categorySchema = z.object({ id: z.number().int(), name: z.string() });
export type Category = z.infer<typeof categorySchema>;

/** On a question (moderation.ts), to its author only, once a moderator removed it or reports hid it. */
export const questionModerationSchema = z.object({
  status: z.enum(['removed', 'under_review']),
  reason: z.string().nullable(),
});
export type QuestionModeration = z.infer<typeof questionModerationSchema>;

export const questionSchema = z.object({
  id: z.number().int(),
  qid: z.number().int(),
  type: questionTypeSchema,
  title: z.string(),
  /** The language the question is written in: an ISO 639-1 code (`"de"`, `"ja"`), chosen when asking. */
  language: z.string(),
  category: categorySchema.nullable(),
  choices: choicesSchema,
  result: resultSchema.nullable(),
  answer: z.object({ choice: z.number() }).nullable(),
  tags: z.array(z.object({ name: z.string() })),
  published_at: z.string(),
  user: z.number().int(),
  user_name: z.string(),
  like_count: z.number().int(),
  /** How many have answered: on every card, before voting too; only the split (`result`) waits for a vote. */
  vote_count: z.number().int(),
  liked: z.boolean(),
  passed: z.boolean(),
  owner: z.boolean(),
  /** To its author only, once removed by a moderator or hidden by reports; absent otherwise. */
  moderation: questionModerationSchema.optional(),
});
export type Question = z.infer<typeof questionSchema>;

export const questionPageSchema = z.object({
  questions: z.array(questionSchema),
  next: z.string().nullable(),
});
export type QuestionPage = z.infer<typeof questionPageSchema>;

export const feedSchema = questionPageSchema.extend({ qotd: questionSchema.nullable() });
export type Feed = z.infer<typeof feedSchema>;

const integerString = z
  .string()
  .trim()
  .regex(/^-?\d{1,9}$/, 'Must be a whole number');

export const createQuestionBodySchema = z
  .object({
    type: questionTypeSchema.default('MC'),
    question: z
      .string()
      .trim()
      .min(1, 'Question is required')
      .max(QUESTION_MAX_LENGTH, `Question must be shorter than ${QUESTION_MAX_LENGTH + 1} characters`),
    choices: z
      .array(z.string().trim().max(CHOICE_MAX_LENGTH, `At most ${CHOICE_MAX_LENGTH} characters`))
      .max(MC_MAX_CHOICES)
      .default([]),
    tags: z
      .array(
        z
          .string()
          .trim()
          .min(1, 'Tag is empty')
          .max(TAG_MAX_LENGTH, `A tag has at most ${TAG_MAX_LENGTH} characters`)
          .regex(/^[\p{L}\p{N}_-]+$/u, 'Letters, digits, - and _ only'),
      )
      .max(1, 'Only one tag')
      .default([]),
    category: idSchema.nullable().optional(),
    /** ISO 639-1 (`"de"`, `"ja"`, any of them, not only the UI locales); the asker's language when absent. */
    language: questionLanguageSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (body.type === 'MC') {
      if (body.choices.length < MC_MIN_CHOICES) {
        ctx.addIssue({
          code: 'custom',
          path: ['choices'],
          message: `Give ${MC_MIN_CHOICES} to ${MC_MAX_CHOICES} choices`,
        });
      }
      body.choices.forEach((choice, index) => {
        if (choice.length === 0)
          ctx.addIssue({ code: 'custom', path: ['choices', index], message: 'Choice is required' });
      });
    } else if (body.type === 'RS') {
      const [min, max] = body.choices;
      const isDefaultScale =
        body.choices.length === 0 ||
        (body.choices.length === 2 && Number(min) === RATING_SCALE.min && Number(max) === RATING_SCALE.max);
      if (!isDefaultScale)
        ctx.addIssue({ code: 'custom', path: ['choices'], message: 'A rating is always from 1 to 10' });
    } else {
      if (body.choices.length !== 2) {
        ctx.addIssue({ code: 'custom', path: ['choices'], message: 'Give a minimum and a maximum' });
        return;
      }
      body.choices.forEach((bound, index) => {
        if (!integerString.safeParse(bound).success)
          ctx.addIssue({ code: 'custom', path: ['choices', index], message: 'Must be a whole number' });
      });
      if (Number(body.choices[0]) >= Number(body.choices[1])) {
        ctx.addIssue({ code: 'custom', path: ['choices'], message: 'The minimum must be below the maximum' });
      }
    }
  });
export type CreateQuestionBody = z.input<typeof createQuestionBodySchema>;

export const createQuestionResponseSchema = z.object({ question: questionSchema });

export const answerBodySchema = z.object({ choice: z.number().finite() });
export type AnswerBody = z.infer<typeof answerBodySchema>;

export const likedSchema = z.object({ liked: z.boolean() });
export const passedSchema = z.object({ passed: z.boolean() });
export const tagParamsSchema = z.object({ tag: z.string().min(1).max(TAG_MAX_LENGTH) });
export const categoryParamsSchema = z.object({ category: idSchema });
export const userParamsSchema = z.object({ user: idSchema });
