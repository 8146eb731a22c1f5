import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Redis every instance shares (REDIS_URL), or null when this instance runs alone. */
    redis: Redis | null;
  }
}

/**
 * Connects to Redis when REDIS_URL is set. Redis being down never stops the app: a command made
 * while it is unreachable fails after one reconnection attempt, and its caller carries on
 * without it; ioredis keeps reconnecting in the background.
 */
export const redisPlugin = fp(
  async (app: FastifyInstance) => {
    const { redisUrl } = app.config;
    if (!redisUrl) {
      app.decorate('redis', null);
      return;
    }
    const redis = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
    redis.on('error', (error) => app.log.warn({ err: error }, 'redis unreachable'));
    app.decorate('redis', redis);
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  },
  { name: 'redis' },
);
