import {
  blockedSchema,
  connectedSchema,
  connectionListSchema,
  errorBodySchema,
  statsSchema,
  userParamsSchema,
  userStatsSchema,
} from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { viewer } from '../../lib/request-session.js';
import { isProfileShown, mayViewProfile } from '../../views/rules.js';
import { listConnections, ownStats, setBlocking, setFollowing, userStats } from './users.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const tags = ['social'];

export const socialRoutes: FastifyPluginAsyncZod = async (app) => {
  const { memory } = app;

  app.get('/polls/stats/', { schema: { tags, response: { 200: statsSchema, ...errors } } }, (request) =>
    ownStats(request.laggingReads.db, viewer(request)),
  );

  app.get(
    '/polls/stats/:user/',
    { schema: { tags, params: userParamsSchema, response: { 200: userStatsSchema, ...errors } } },
    (request) => {
      const viewerId = viewer(request);
      mayViewProfile(memory.moderation, viewerId, request.params.user);
      return userStats(request.laggingReads.db, viewerId, request.params.user);
    },
  );

  app.get(
    '/auth/connections/',
    { schema: { tags, response: { 200: connectionListSchema, ...errors } } },
    async (request) => {
      const viewerId = viewer(request);
      return (await listConnections(request.laggingReads.db, viewerId)).filter((connection) =>
        isProfileShown(memory.moderation, viewerId, connection.id),
      );
    },
  );

  for (const connected of [true, false]) {
    app.post(
      connected ? '/auth/follow/:user/' : '/auth/unfollow/:user/',
      { schema: { tags, params: userParamsSchema, response: { 200: connectedSchema, ...errors } } },
      async (request) => {
        const viewerId = viewer(request);
        // Following tells the person and confirms they exist: a suspended person is 404, as their profile is.
        if (connected) mayViewProfile(memory.moderation, viewerId, request.params.user);
        await app.changes.commit((trx) => setFollowing(trx, viewerId, request.params.user, connected));
        return { connected };
      },
    );
  }

  for (const blocked of [true, false]) {
    app.post(
      blocked ? '/auth/ban/:user/' : '/auth/unban/:user/',
      { schema: { tags, params: userParamsSchema, response: { 200: blockedSchema, ...errors } } },
      async (request) => {
        await app.changes.commit((trx) => setBlocking(trx, viewer(request), request.params.user, blocked));
        return { blocked };
      },
    );
  }
};
