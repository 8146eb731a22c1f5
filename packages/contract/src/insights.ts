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

/**
 * One group's result as the private release shows it, with its uncertainty: its noisy count of
 * voters, the noise's standard deviation in that count, and per answer the group's percentage
 * with its 95% margin of error (sampling and noise together). `shown` is false when the count
 * says too little: then `count` is 0 and `rows` and `average` are empty.
 */
export const releasedGroupSchema = z.object({
  label: z.string(),
  shown: z.boolean(),
  count: z.number().int(),
  count_sd: z.number(),
  /**
   * Each answer (a choice, a rating's value, a number's range) with the group's percentage and its margin, in points.
   */
  rows: z.array(z.object({ key: z.number(), label: z.string(), percent: z.number(), margin: z.number() })),
  /** A rating's or number's average with its margin; null for multiple choice. */
  average: z.object({ value: z.number(), margin: z.number() }).nullable(),
});
export type ReleasedGroup = z.infer<typeof releasedGroupSchema>;

/** A group of a breakdown's whole split by one attribute, with the filter that shows it alone. */
export const splitGroupSchema = releasedGroupSchema.extend({
  filter: z.object({
    gender: genderSchema.optional(),
    min_age: z.number().int().optional(),
    max_age: z.number().int().optional(),
    country: z.number().int().optional(),
  }),
});
export type SplitGroup = z.infer<typeof splitGroupSchema>;

/**
 * Each attribute's whole split at once, read from the release (so it spends nothing more): every gender, age band and
 * country with voters.
 */
export const breakdownSplitsSchema = z.object({
  gender: z.array(splitGroupSchema),
  age: z.array(splitGroupSchema),
  country: z.array(splitGroupSchema),
});
export type BreakdownSplits = z.infer<typeof breakdownSplitsSchema>;

export const breakdownInfoSchema = z.object({
  question: questionSchema,
  filters: breakdownFiltersSchema,
  splits: breakdownSplitsSchema,
});
export type BreakdownInfo = z.infer<typeof breakdownInfoSchema>;

export const breakdownFilterBodySchema = z
  .object({
    min_age: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(999).default(AGE_FILTER_DEFAULTS.min)),
    max_age: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(999).default(AGE_FILTER_DEFAULTS.max)),
    country: z.preprocess(blankToUndefined, idSchema.optional()),
    gender: z.preprocess(blankToUndefined, genderSchema.optional()),
  })
  .refine((body) => body.min_age <= body.max_age, {
    path: ['min_age'],
    message: 'The lower age must not exceed the upper age',
  });
export type BreakdownFilterBody = z.input<typeof breakdownFilterBodySchema>;

/**
 * One row of a filtered-against-everyone comparison, with its 95% margin of error (sampling and privacy noise
 * together).
 */
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
  average: z
    .object({ value: z.number(), overall: z.number(), margin: z.number(), significant: z.boolean() })
    .nullable(),
});
export type Comparison = z.infer<typeof comparisonSchema>;

/** An age span in whole years. */
export const ageSpanSchema = z.object({ min: z.number().int(), max: z.number().int() });

/**
 * How a breakdown's counts were released (docs/insights.md, Privacy): a group narrower than
 * everyone is counted with noise, so that no count gives away one person's answer.
 */
export const breakdownPrivacySchema = z.object({
  /** True when the group is everyone: its counts are exact, like the question's own result. */
  exact: z.boolean(),
  /** The question's votes the release counts: its first `counted` votes (it catches up a few at a time). */
  counted: z.number().int(),
  /** The standard deviation of the noise in the group's count of voters; 0 when exact. */
  count_sd: z.number(),
});
export type BreakdownPrivacy = z.infer<typeof breakdownPrivacySchema>;

export const breakdownResultSchema = z.object({
  question: questionSchema,
  overall: resultSchema,
  comparison: comparisonSchema.nullable(),
  /** The ages the result covers: the filter's range widened to whole age bands; null when it covers every age. */
  ages: ageSpanSchema.nullable().optional(),
  privacy: breakdownPrivacySchema,
});
export type BreakdownResult = z.infer<typeof breakdownResultSchema>;

/**
 * The chi-square test of a relate table, computed from its noisy counts so that the noise cannot pass for a link
 * (docs/insights.md).
 */
export const associationSchema = z.object({
  /** About how many people answered both: the table's noisy count. */
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

/**
 * How a relate's counts were released: always with noise. Null when the pair cannot be released
 * because one of the questions has already been related to as many others as its privacy
 * budget allows (`RELATE_PAIRS_PER_QUESTION`).
 */
export const relatePrivacySchema = z
  .object({
    /**
     * The votes of each question the release counts: the people among the first question's first `first_counted` voters
     * and the second's first `second_counted`.
     */
    first_counted: z.number().int(),
    second_counted: z.number().int(),
    /** The standard deviation of the noise in the count of voters of one choice of the second question. */
    count_sd: z.number(),
  })
  .nullable();
export type RelatePrivacy = z.infer<typeof relatePrivacySchema>;

/** Pairs a question may be related in: the privacy budget of its voters' answers is shared among them. */
export const RELATE_PAIRS_PER_QUESTION = 8;

export const relatePairSchema = z.object({
  first: questionSchema,
  second: questionSchema,
  association: associationSchema.nullable(),
  privacy: relatePrivacySchema,
  /**
   * The first question's result among the voters of each choice of the second, side by side, in key order; empty when
   * the pair cannot be released.
   */
  choices: z.array(releasedGroupSchema.extend({ key: z.number().int() })),
});
export type RelatePair = z.infer<typeof relatePairSchema>;
export type RelateChoice = RelatePair['choices'][number];
export const relateParamsSchema = z.object({ a: idSchema, b: idSchema });
export const relateBodySchema = z.object({ choice: z.number().int() });
/** The relate download: one choice of the second question, or every choice when none is given. */
export const relateCsvQuerySchema = z.object({
  choice: z.preprocess(blankToUndefined, z.coerce.number().int().optional()),
});
export const relateResultSchema = z.object({
  question: questionSchema,
  overall: resultSchema,
  /**
   * The choice's voters against everyone who answered the first question, as a breakdown compares a group; null when
   * suppressed.
   */
  comparison: comparisonSchema.nullable(),
  association: associationSchema.nullable(),
  privacy: relatePrivacySchema,
});
export type RelateResult = z.infer<typeof relateResultSchema>;

export const relatedQuestionSchema = z.object({
  question: questionSchema,
  /** About how many people answered both: the relate table's noisy count. */
  shared_voters: z.number().int(),
  cramers_v: z.number(),
  p_value: z.number(),
  q_value: z.number(),
});
export const relatedListSchema = z.object({ related: z.array(relatedQuestionSchema) });
export type RelatedQuestion = z.infer<typeof relatedQuestionSchema>;
