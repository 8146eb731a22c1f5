import { errorBodySchema, healthSchema, readySchema } from '@pollscope/contract';
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ServiceUnavailableError } from '../../errors.js';

/**
 * How long a check waits for an answer: a load balancer asks every few seconds and must not wait on a hung database.
 */
const CHECK_TIMEOUT_MS = 2_000;
/** A load balancer asks again on its own schedule; this is for any other client. */
const NOT_READY_RETRY_AFTER_SECONDS = 5;

/** Whether `check` succeeds within the timeout. */
async function answers(check: () => Promise<unknown>): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), CHECK_TIMEOUT_MS)));
  try {
    return await Promise.race([
      check().then(
        () => true,
        () => false,
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

const always = { public: true, alwaysAnswered: true };

export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  /** The lightest call through the whole server stack: liveness, and the benchmark's ceiling. */
  app.get(
    '/health',
    { config: always, schema: { tags: ['site'], security: [], response: { 200: healthSchema, 400: errorBodySchema } } },
    async () => ({
      ok: true as const,
    }),
  );

  /** Readiness: what a load balancer asks before sending this instance requests. */
  app.get(
    '/ready',
    {
      config: always,
      schema: {
        tags: ['site'],
        security: [],
        response: { 200: readySchema, 400: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (request) => {
      const { db, redis } = app;
      const [database, redisAnswers] = await Promise.all([
        answers(() => sql`select 1`.execute(db)),
        redis
          ? answers(() => (redis.status === 'ready' ? redis.ping() : Promise.reject(new Error(redis.status))))
          : Promise.resolve(null),
      ]);
      const failed = [
        ...(database ? [] : ['the database does not answer']),
        ...(redisAnswers === false ? ['Redis does not answer'] : []),
      ];
      if (failed.length > 0) {
        request.log.warn({ failed }, 'not ready');
        throw new ServiceUnavailableError(`Not ready: ${failed.join('; ')}`, NOT_READY_RETRY_AFTER_SECONDS);
      }
      return { database: 'ok' as const, redis: redisAnswers ? ('ok' as const) : ('not configured' as const) };
    },
  );
};
