import {
  errorBodySchema,
  pushKeySchema,
  pushSubscriptionBodySchema,
  pushUnsubscribeBodySchema,
} from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { viewer } from '../../lib/request-session.js';
import { hashToken } from '../auth/index.js';
import { subscribe, unsubscribe } from './subscriptions.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema };
const tags = ['push'];

export const pushRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app;

  // Public: the app asks for it before subscribing, and it is the same for everyone.
  app.get(
    '/push/key/',
    {
      config: { public: true },
      schema: { tags, security: [], response: { 200: pushKeySchema, 400: errorBodySchema } },
    },
    () => ({ key: app.push.publicKey }),
  );

  app.post(
    '/push/subscriptions/',
    { schema: { tags, body: pushSubscriptionBodySchema, response: { 201: z.null(), ...errors } } },
    async (request, reply) => {
      const userId = viewer(request);
      await subscribe(db, userId, hashToken(request.token!), request.body, config.pushAllowPrivateEndpoints);
      return reply.code(201).send(null);
    },
  );

  app.delete(
    '/push/subscriptions/',
    { schema: { tags, body: pushUnsubscribeBodySchema, response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await unsubscribe(db, viewer(request), request.body.endpoint);
      return reply.code(204).send(null);
    },
  );
};
