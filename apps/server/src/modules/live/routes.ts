import {
  errorBodySchema,
  idParamsSchema,
  LIVE_RESULT_EVENT,
  liveResultSchema,
  type LiveResult,
} from '@pollscope/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { questionToAct } from '../../views/pipeline.js';
import { readerOf } from '../../views/reader.js';
import { seesResult } from '../../views/rules.js';
import { wantsEventStream } from './event-stream.js';
import { liveResultOf } from './hub.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/polls/live/:id/',
    {
      schema: {
        tags: ['polls'],
        description:
          'With `Accept: text/event-stream`, a stream of server-sent events: a `result` event with the question’s state when it opens and after every vote or like on it, and a comment line while idle. Otherwise the state once, as JSON.',
        params: idParamsSchema,
        response: { 200: liveResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const reader = await readerOf(request);
      const read = await questionToAct(reader, request.params.id);
      const { card } = read;
      if (!wantsEventStream(request)) return liveResultOf(read, seesResult(reader.viewer, card));

      // The response schema describes the JSON form; a stream is sent as it is. The hub asks the rules again at each
      // send.
      return app.eventStreams.reply(request, reply as FastifyReply, reader.viewer.userId, (sink) =>
        app.live.watch(card.id, reader.viewer, {
          send: (result: LiveResult) => sink.send(LIVE_RESULT_EVENT, result),
          end: sink.end,
        }),
      );
    },
  );
};
