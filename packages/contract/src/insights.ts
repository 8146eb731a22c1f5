import { z } from 'zod';
import { genderSchema, idSchema } from './common.js';
import { questionSchema, resultSchema } from './questions.js';

export const AGE_FILTER_DEFAULTS = { min: 0, max: 999 } as const;

const blankToUndefined = (value: unknown) => (value === '' || value === null ? undefined : value);

export const breakdownFiltersSchema = z.object({
  gender: z.array(z.object({ value: genderSchema, label: z.string() })),
  /** Youngest and oldest voter ages. */
  age: z.object({ min: z.number().int(), max: z.number().int() }),
  /** Ids of the countries that have voters. */
  country: z.array(z.number().int()),
});
export type BreakdownFilters = z.infer<typeof breakdownFiltersSchema>;

export const breakdownInfoSchema = z.object({ question: questionSchema, filters: breakdownFiltersSchema });

export const breakdownFilterBodySchema = z
  .object({
    min_age: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(999).default(AGE_FILTER_DEFAULTS.min)),
    max_age: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(999).default(AGE_FILTER_DEFAULTS.max)),
    country: z.preprocess(blankToUndefined, idSchema.optional()),
    gender: z.preprocess(blankToUndefined, genderSchema.optional()),
  })
  .refine((body) => body.min_age <= body.max_age, { path: ['min_age'], message: 'The lower age must not exceed the upper age' });
export type BreakdownFilterBody = z.input<typeof breakdownFilterBodySchema>;

/** One row of a filtered-against-everyone comparison, with its 95% margin of error. */
export const comparisonRowSchema = z.object({
  key: z.number(),
  label: z.string(),
  percent: z.number(),
  overall_percent: z.number(),
  margin: z.number(),
  significant: z.boolean(),
});

export const comparisonSchema = z.object({
  rows: z.array(comparisonRowSchema),
  average: z.object({ value: z.number(), overall: z.number(), margin: z.number(), significant: z.boolean() }).nullable(),
});
export type Comparison = z.infer<typeof comparisonSchema>;

/** An age span in whole years. */
export const ageSpanSchema = z.object({ min: z.number().int(), max: z.number().int() });

export const breakdownResultSchema = z.object({
  question: questionSchema,
  overall: resultSchema,
  comparison: comparisonSchema.nullable(),
  /** The ages the result covers: the filter's range widened to whole age bands; null when it covers every age. */
  ages: ageSpanSchema.nullable().optional(),
});
export type BreakdownResult = z.infer<typeof breakdownResultSchema>;

export const associationSchema = z.object({
  n: z.number().int(),
  chi_square: z.number(),
  df: z.number().int(),
  p_value: z.number(),
  cramers_v: z.number(),
  significant: z.boolean(),
  strength: z.enum(['negligible', 'weak', 'moderate', 'strong']),
  summary: z.string(),
});
export type Association = z.infer<typeof associationSchema>;

export const relatePairSchema = z.object({
  first: questionSchema,
  second: questionSchema,
  association: associationSchema.nullable(),
});
export const relateParamsSchema = z.object({ a: idSchema, b: idSchema });
export const relateBodySchema = z.object({ choice: z.number().int() });
/** The relate download: one choice of the second question, or every choice when none is given. */
export const relateCsvQuerySchema = z.object({ choice: z.preprocess(blankToUndefined, z.coerce.number().int().optional()) });
export const relateResultSchema = z.object({
  question: questionSchema,
  overall: resultSchema,
  association: associationSchema.nullable(),
});
export type RelateResult = z.infer<typeof relateResultSchema>;

export const relatedQuestionSchema = z.object({
  question: questionSchema,
  shared_voters: z.number().int(),
  cramers_v: z.number(),
  p_value: z.number(),
  q_value: z.number(),
});
export const relatedListSchema = z.object({ related: z.array(relatedQuestionSchema) });
export type RelatedQuestion = z.infer<typeof relatedQuestionSchema>;
