import { errorBodySchema, idParamsSchema, LIVE_RESULT_EVENT, liveResultSchema, type LiveResult } from '@pollscope/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PassThrough } from 'node:stream';
import { questionToAct } from '../../views/pipeline.js';
import { readerOf } from '../../views/plugin.js';
import { resultOf } from '../../views/question-cards.js';
import { seesResult } from '../../views/rules.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };

/** How long a client waits before reconnecting a stream that ended (an instance stopping, a network cut). */
const RECONNECT_MS = 3000;

/**
 * Events a client has not read yet, in bytes, past which its stream is closed: every event holds
 * the whole state, so the client loses nothing by reconnecting, and a stalled one holds no memory.
 */
const MAX_UNREAD_BYTES = 256 * 1024;

function wantsEventStream(request: FastifyRequest): boolean {
  return String(request.headers.accept ?? '').includes('text/event-stream');
}

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
      const { card, moving } = await questionToAct(reader, request.params.id);
      const sees = seesResult(reader.viewer, card);
      if (!wantsEventStream(request)) return { id: card.id, result: sees ? resultOf(card, moving) : null, like_count: moving.likeCount };

      const stream = new PassThrough();
      const write = (text: string) => {
        if (stream.writableLength > MAX_UNREAD_BYTES) stream.destroy();
        else stream.write(text);
      };
      write(`retry: ${RECONNECT_MS}\n\n`);
      const heartbeat = setInterval(() => write(': still here\n\n'), app.config.liveHeartbeatSeconds * 1000);
      const stop = app.live.watch(card.id, {
        viewerId: reader.viewer.userId,
        seesResult: sees,
        send: (result: LiveResult) => write(`event: ${LIVE_RESULT_EVENT}\ndata: ${JSON.stringify(result)}\n\n`),
        end: () => stream.end(),
      });
      // Closed when the client goes away (Fastify then destroys the stream) or the instance stops.
      stream.once('close', () => {
        clearInterval(heartbeat);
        stop();
      });
      // The response schema describes the JSON form; a stream is sent as it is.
      return (
        (reply as FastifyReply)
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-cache, no-transform')
          // Proxies that buffer responses (nginx) would hold the events back.
          .header('x-accel-buffering', 'no')
          .send(stream)
      );
    },
  );
};
