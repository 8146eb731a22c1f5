import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { breakdownRoutes } from './breakdown-routes.js';
import { relateRoutes } from './relate-routes.js';
import { relatedRoutes } from './related-routes.js';

/** The insights tools, one route file each: breakdown, relate and related questions. */
export const insightsRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(breakdownRoutes);
  await app.register(relateRoutes);
  await app.register(relatedRoutes);
};
