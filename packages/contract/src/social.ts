import { z } from 'zod';

export const statsSchema = z.object({
  question: z.number().int(),
  answer: z.number().int(),
  like: z.number().int(),
});
export type Stats = z.infer<typeof statsSchema>;

export const userStatsSchema = statsSchema.extend({
  id: z.number().int(),
  name: z.string(),
  /** The caller blocked this user. */
  blocked: z.boolean(),
  /** The caller follows this user. */
  connected: z.boolean(),
  birthdate: z.string(),
  /** Country name. */
  livein: z.string(),
});
export type UserStats = z.infer<typeof userStatsSchema>;

export const connectionSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  time: z.string(),
  question: z.number().int(),
  answer: z.number().int(),
  like: z.number().int(),
});
export type Connection = z.infer<typeof connectionSchema>;
export const connectionListSchema = z.array(connectionSchema);

export const connectedSchema = z.object({ connected: z.boolean() });
export const blockedSchema = z.object({ blocked: z.boolean() });
