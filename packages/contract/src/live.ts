import { z } from 'zod';
import { resultSchema } from './questions.js';

/**
 * What a viewer of a question's results gets, once when the live stream opens and again each
 * time a vote or a like lands on the question (GET api.live(id) with Accept: text/event-stream,
 * one `event: result` per change); without that Accept header, the same object once as JSON.
 * `result` is null for a viewer who may not see it yet: only the author and those who answered do. `vote_count` is
 * for everyone, a visitor without a token too (the embed, CONTRACT.md §7), as every card shows it before voting.
 */
export const liveResultSchema = z.object({
  id: z.number().int(),
  result: resultSchema.nullable(),
  like_count: z.number().int(),
  vote_count: z.number().int(),
});
export type LiveResult = z.infer<typeof liveResultSchema>;

/** The name of the live stream's events. */
export const LIVE_RESULT_EVENT = 'result';
