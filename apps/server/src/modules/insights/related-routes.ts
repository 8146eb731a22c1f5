import { idParamsSchema, relatedListSchema } from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listedViews } from '../../views/pipeline.js';
import { readerOf } from '../../views/reader.js';
import { exploredQuestion } from './access.js';
import { RELATED_SHOWN } from './related.js';
import { errors, tags } from './route-responses.js';

/** The questions whose answers go with a question's the most. */
export const relatedRoutes: FastifyPluginAsyncZod = async (app) => {
  const { related } = app.memory;
  const k = app.config.minGroupSize;

  app.get(
    '/polls/related/:id/',
    { schema: { tags, params: idParamsSchema, response: { 200: relatedListSchema, ...errors } } },
    async (request) => {
      const reader = await readerOf(request);
      const question = await exploredQuestion(reader, request.params.id);
      const entries = new Map((await related.get(question, k)).map((entry) => [entry.id, entry]));
      // Those the viewer hid or whose authors a block stands between are left out.
      const views = (await listedViews(reader, [...entries.keys()])).slice(0, RELATED_SHOWN);
      return {
        related: views.map((view) => {
          const entry = entries.get(view.id)!;
          return {
            question: view,
            shared_voters: entry.sharedVoters,
            cramers_v: entry.cramersV,
            p_value: entry.pValue,
            q_value: entry.qValue,
          };
        }),
      };
    },
  );
};
