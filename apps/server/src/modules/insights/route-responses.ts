import { errorBodySchema } from '@pollscope/contract';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

/** What the insights routes share: their tag, their error answers, and how a download is sent. */
export const tags = ['insights'];

export const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** A download's answer: a CSV file, sent as it is. */
export const csvFile = {
  200: { description: 'A CSV file, one line per answer and group', content: { 'text/csv': { schema: z.string() } } },
  ...errors,
};

export function sendCsv(reply: FastifyReply, { filename, csv }: { filename: string; csv: string }): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(csv);
}
