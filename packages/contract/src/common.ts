import { z } from 'zod';

export const idSchema = z.coerce.number().int().positive().max(2_147_483_647);
export const idParamsSchema = z.object({ id: idSchema });

export const healthSchema = z.object({ ok: z.literal(true) });
/** What `/api/ready` found answering; when something does not, it answers 503 with an error body naming it. */
export const readySchema = z.object({ database: z.literal('ok'), redis: z.enum(['ok', 'not configured']) });

export const errorBodySchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  cursor: z.string().max(200).optional(),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

export const isoDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the format YYYY-MM-DD')
  .refine(
    (value) =>
      !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value),
    'Not a real date',
  );

export const genderSchema = z.enum(['F', 'M']);
export type Gender = z.infer<typeof genderSchema>;

/** Display ids: UID/QID plus the id zero-padded to 3 digits (QID007, QID1234). */
export function displayId(prefix: 'UID' | 'QID', id: number): string {
  return `${prefix}${String(id).padStart(3, '0')}`;
}

/** Whole years between a birth date and a day, both YYYY-MM-DD. */
export function ageOn(birthDate: string, day: string): number {
  const [by, bm, bd] = birthDate.split('-').map(Number);
  const [y, m, d] = day.split('-').map(Number);
  return y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
}
