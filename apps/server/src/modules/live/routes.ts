import {
  errorBodySchema,
  idParamsSchema,
  LIVE_RESULT_EVENT,
  liveResultSchema,
  type LiveResult,
} from '@pollscope/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { NotFoundError } from '../../errors.js';
import { hydrate, questionToAct } from '../../views/pipeline.js';
import type { CardRead } from '../../views/question-cards.js';
import { readerOf } from '../../views/reader.js';
import { isVisible, seesResult } from '../../views/rules.js';
import type { ViewerState } from '../../views/viewer-states.js';
import { streamOwnerOf, wantsEventStream } from './event-stream.js';
import { liveResultOf } from './hub.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

export const liveRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/polls/live/:id/',
    {
      // A visitor may watch the vote count, never the result (the embed, CONTRACT.md §7).
      config: { public: true },
      schema: {
        tags: ['polls'],
        description:
          'With `Accept: text/event-stream`, a stream of server-sent events: a `result` event with the question’s state when it opens and after every vote or like on it, and a comment line while idle. Otherwise the state once, as JSON. Without a token, the vote count and likes only: `result` is null.',
        security: [{ token: [] }, {}],
        params: idParamsSchema,
        response: { 200: liveResultSchema, ...errors },
      },
    },
    async (request, reply) => {
      const { viewer, read } = await watchedQuestion(request);
      const { card } = read;
      if (!wantsEventStream(request)) return liveResultOf(read, seesResult(viewer, card));

      // The response schema describes the JSON form; a stream is sent as it is. The hub asks the rules again at each
      // send.
      return app.eventStreams.reply(request, reply as FastifyReply, streamOwnerOf(request), (sink) =>
        app.live.watch(card.id, viewer, {
          send: (result: LiveResult) => sink.send(LIVE_RESULT_EVENT, result),
          end: sink.end,
        }),
      );
    },
  );
};

/**
 * The question a stream watches and who watches it: a signed-in person under the rules of acting on it (visible to them,
 * no block), or a visitor (null), who may watch any question moderation does not withhold.
 */
async function watchedQuestion(request: FastifyRequest): Promise<{ viewer: ViewerState | null; read: CardRead }> {
  const { id } = request.params as { id: number };
  if (request.viewerId !== null) {
    const reader = await readerOf(request);
    return { viewer: reader.viewer, read: await questionToAct(reader, id) };
  }
  const { db, memory } = request.server;
  const [read] = await hydrate({ db, cards: memory.cards, moderation: memory.moderation, viewer: null }, [id]);
  if (!read || !isVisible(memory.moderation, null, read.card)) throw new NotFoundError('errors.noSuchQuestion');
  return { viewer: null, read };
}
