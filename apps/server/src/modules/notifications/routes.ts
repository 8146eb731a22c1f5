import {
  errorBodySchema,
  notificationPageSchema,
  notificationsReadBodySchema,
  pageQuerySchema,
  UNREAD_EVENT,
  unreadSchema,
} from '@pollscope/contract';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { decodeCursor } from '../../db/pagination.js';
import { viewer } from '../../lib/request-session.js';
import { wantsEventStream } from '../live/index.js';
import { markRead } from './notify.js';
import { listNotifications, unreadCount } from './queries.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 404: errorBodySchema };
const tags = ['notifications'];

export const notificationsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  app.get(
    '/notifications/',
    {
      schema: {
        tags,
        querystring: pageQuerySchema.pick({ cursor: true }),
        response: { 200: notificationPageSchema, ...errors },
      },
    },
    (request) => listNotifications(db, viewer(request), decodeCursor(request.query.cursor)),
  );

  // Fastify validates a request sent with no body as null: the contract's call without `ids`.
  app.post(
    '/notifications/read/',
    { schema: { tags, body: notificationsReadBodySchema.nullable(), response: { 200: unreadSchema, ...errors } } },
    async (request) => {
      const userId = viewer(request);
      await app.changes.commit((trx) => markRead(trx, userId, request.body?.ids));
      return { unread: await unreadCount(db, userId) };
    },
  );

  app.get(
    '/notifications/live/',
    {
      schema: {
        tags,
        description:
          'With `Accept: text/event-stream`, a stream of server-sent events: an `unread` event with the caller’s unread count when it opens and whenever it changes, and a comment line while idle. Otherwise the count once, as JSON.',
        response: { 200: unreadSchema, ...errors },
      },
    },
    async (request, reply) => {
      const userId = viewer(request);
      if (!wantsEventStream(request)) return { unread: await unreadCount(db, userId) };
      // The response schema describes the JSON form; a stream is sent as it is.
      return app.eventStreams.reply(request, reply as FastifyReply, userId, (sink) =>
        app.unread.watch(userId, { send: (unread) => sink.send(UNREAD_EVENT, { unread }), end: sink.end }),
      );
    },
  );
};
