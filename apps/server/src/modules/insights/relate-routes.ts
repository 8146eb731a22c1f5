import {
  relateBodySchema,
  relateCsvQuerySchema,
  relatePairSchema,
  relateParamsSchema,
  relateResultSchema,
} from '@pollscope/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { questionViews } from '../../views/pipeline.js';
import { readerOf } from '../../views/reader.js';
import { buildResult } from '../../views/results.js';
import { requestLocale } from '../../views/request-locale.js';
import { associationIn } from './association.js';
import type { PairTables } from './pair-tables.js';
import { choiceOf, choiceResult, questionsToRelate, relateChoices, relateCsv, relateTable } from './relate.js';
import { csvFile, errors, sendCsv, tags } from './route-responses.js';

/** The pair, its release (null when its budget is spent), and both questions as the viewer sees them. */
async function relatedPair(request: FastifyRequest, tables: PairTables, k: number, firstId: number, secondId: number) {
  const reader = await readerOf(request);
  const [first, second] = await questionsToRelate(reader, firstId, secondId);
  const views = await questionViews(reader, [first.id, second.id]);
  const table = await relateTable(tables, first, second, k);
  return { first, second, table, firstView: views[0], secondView: views[1] };
}

/** One question's voters by their answer to another: side by side, one choice's, and the download. */
export const relateRoutes: FastifyPluginAsyncZod = async (app) => {
  const { pairTables } = app.memory;
  const k = app.config.minGroupSize;

  app.get(
    '/polls/relate/:a/:b/',
    { schema: { tags, params: relateParamsSchema, response: { 200: relatePairSchema, ...errors } } },
    async (request) => {
      const { a, b } = request.params;
      const { first, second, table, firstView, secondView } = await relatedPair(request, pairTables, k, a, b);
      return {
        first: firstView,
        second: secondView,
        association: table?.tested ? associationIn(table.tested, await requestLocale(request)) : null,
        privacy: table?.privacy ?? null,
        choices: relateChoices(first, second, table, k),
      };
    },
  );

  app.post(
    '/polls/relate/:a/:b/',
    {
      schema: {
        tags,
        params: relateParamsSchema,
        body: relateBodySchema,
        response: { 200: relateResultSchema, ...errors },
      },
    },
    async (request) => {
      const { a, b } = request.params;
      const { first, second, table, firstView } = await relatedPair(request, pairTables, k, a, b);
      const { result, comparison } = choiceResult(first, table, choiceOf(second, request.body.choice));
      return {
        question: { ...firstView, result },
        comparison,
        overall: firstView.result ?? buildResult(first.kind, new Map()),
        association: table?.tested ? associationIn(table.tested, await requestLocale(request)) : null,
        privacy: table?.privacy ?? null,
      };
    },
  );

  app.get(
    '/polls/relate/:a/:b/csv',
    { schema: { tags, params: relateParamsSchema, querystring: relateCsvQuerySchema, response: csvFile } },
    async (request, reply) => {
      const { a, b } = request.params;
      const { first, second, table } = await relatedPair(request, pairTables, k, a, b);
      const keys =
        request.query.choice === undefined
          ? second.labels.map((_, index) => index + 1)
          : [choiceOf(second, request.query.choice)];
      return sendCsv(reply, relateCsv(first, second, table, keys));
    },
  );
};
