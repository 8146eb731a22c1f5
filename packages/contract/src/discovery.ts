import { z } from 'zod';
import { pageQuerySchema } from './common.js';
import { questionSchema } from './questions.js';

/** What a search may be given to find: up to this many characters. */
export const SEARCH_QUERY_MAX_LENGTH = 100;

const searchTextSchema = z
  .string()
  .trim()
  .min(1, 'Type something to search for')
  .max(SEARCH_QUERY_MAX_LENGTH, `At most ${SEARCH_QUERY_MAX_LENGTH} characters`);

/**
 * GET api.search: questions whose title, tags or choices hold every word of `q` (the last one
 * may be the start of a word; any case, any accent), best match first, a page at a time.
 */
export const searchQuerySchema = pageQuerySchema.extend({ q: searchTextSchema });
export type SearchQuery = z.input<typeof searchQuerySchema>;

/** GET api.people: people whose first name starts with `q`. */
export const peopleQuerySchema = z.object({ q: searchTextSchema });

/** Someone shown to be followed: `asked` counts their questions. */
const someoneSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  asked: z.number().int(),
});

/** A person found by name; `connected` says whether the caller follows them. */
export const personSchema = someoneSchema.extend({ connected: z.boolean() });
export type Person = z.infer<typeof personSchema>;
export const peopleSchema = z.object({ people: z.array(personSchema) });
export type People = z.infer<typeof peopleSchema>;

/** Someone the caller may want to follow, and why, in words ("Followed by 3 people you follow"). */
export const suggestionSchema = someoneSchema.extend({ reason: z.string() });
export type Suggestion = z.infer<typeof suggestionSchema>;
export const suggestionsSchema = z.object({ people: z.array(suggestionSchema) });
export type Suggestions = z.infer<typeof suggestionsSchema>;

/** GET api.trending: the questions answered most in the last 24 hours, most first. */
export const trendingSchema = z.object({ questions: z.array(questionSchema) });
export type Trending = z.infer<typeof trendingSchema>;
