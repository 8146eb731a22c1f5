import { errorBodySchema, healthSchema } from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The lightest call through the whole server stack: for load balancers, and as the benchmark's ceiling. */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/health', { config: { public: true }, schema: { tags: ['site'], security: [], response: { 200: healthSchema, 400: errorBodySchema } } }, async () => ({
    ok: true as const,
  }));
};
