import {
  breakdownFilterBodySchema,
  breakdownInfoSchema,
  breakdownResultSchema,
  idParamsSchema,
} from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { questionViews } from '../../views/pipeline.js';
import { readerOf } from '../../views/reader.js';
import { exploredQuestion } from './access.js';
import { breakdownCsv, breakdownOverview, filteredBreakdown, type BreakdownQuery } from './breakdown.js';
import { csvFile, errors, sendCsv, tags } from './route-responses.js';

function queryOf(filter: z.output<typeof breakdownFilterBodySchema>): BreakdownQuery {
  return {
    minAge: filter.min_age,
    maxAge: filter.max_age,
    gender: filter.gender ?? null,
    country: filter.country ?? null,
  };
}

/** A question's voters by gender, age band and country: the page's splits, a filtered group, and its download. */
export const breakdownRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const { segmentTables } = app.memory;
  const k = app.config.minGroupSize;

  app.get(
    '/polls/breakdown/:id/',
    { schema: { tags, params: idParamsSchema, response: { 200: breakdownInfoSchema, ...errors } } },
    async (request) => {
      const reader = await readerOf(request);
      const question = await exploredQuestion(reader, request.params.id);
      const [[view], { filters, splits }] = await Promise.all([
        questionViews(reader, [question.id]),
        breakdownOverview(db, segmentTables, question, k),
      ]);
      return { question: view, filters, splits };
    },
  );

  app.post(
    '/polls/breakdown/:id/',
    {
      schema: {
        tags,
        params: idParamsSchema,
        body: breakdownFilterBodySchema,
        response: { 200: breakdownResultSchema, ...errors },
      },
    },
    async (request) => {
      const reader = await readerOf(request);
      const question = await exploredQuestion(reader, request.params.id);
      const [breakdown, [view]] = await Promise.all([
        filteredBreakdown(segmentTables, question, queryOf(request.body), k),
        questionViews(reader, [question.id], { withResults: false }),
      ]);
      const { result, overall, comparison, ages, privacy } = breakdown;
      return { question: { ...view, result }, overall, comparison, ages, privacy };
    },
  );

  app.get(
    '/polls/breakdown/:id/csv',
    { schema: { tags, params: idParamsSchema, querystring: breakdownFilterBodySchema, response: csvFile } },
    async (request, reply) => {
      const question = await exploredQuestion(await readerOf(request), request.params.id);
      return sendCsv(reply, await breakdownCsv(db, segmentTables, question, queryOf(request.query), k));
    },
  );
};
