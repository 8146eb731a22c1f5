import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import { Counter } from 'prom-client';
import { METRIC_PREFIX } from '../../lib/metrics.js';
import { decodeChange, encodeChange, type HeardChange } from '../../changes/change.js';
import { ChangeLayer, type Changes } from '../../changes/layer.js';

declare module 'fastify' {
  interface FastifyInstance {
    changes: Changes;
  }
}

/**
 * The change layer (changes/layer.ts), whose committed changes are published on the one Redis channel every instance
 * hears, and applied there as they are here, by what the module areas registered. Plugins that keep copies or streams
 * register after this one. Publishing never fails a request: the change is committed, and an instance that
 * could not hear it is told `missed` once Redis is back: by its own connection, subscribed again,
 * and by the instance whose change could not be published, once its connection is back.
 */
export const changesPlugin = fp(
  async (app: FastifyInstance) => {
    const { redis } = app;
    const instance = randomUUID();
    const channel = `${app.config.redisPrefix}changes`;

    const committedHere = new Counter({
      name: `${METRIC_PREFIX}changes_committed_total`,
      help: 'Changes committed on this instance, by kind: voted, liked, asked (questions), reported…',
      labelNames: ['kind'] as const,
      registers: [app.metrics],
    });
    // A change that could not be published leaves the others' copies stale, with no news of it:
    // once Redis answers this instance again, it tells them all to read their copies again.
    let unpublished = false;
    const publish = (change: HeardChange) =>
      redis?.publish(channel, encodeChange(instance, change)).catch((error: unknown) => {
        unpublished = true;
        app.log.warn({ err: error, change }, 'changes: publishing failed');
      });
    redis?.on('ready', () => {
      if (!unpublished) return;
      unpublished = false;
      void publish({ kind: 'missed' });
    });
    const changes = new ChangeLayer(app.db, app.metrics, (change) => {
      committedHere.inc({ kind: change.kind });
      void publish(change);
    });
    app.decorate('changes', changes satisfies Changes);

    if (redis) {
      // A connection that subscribes can do nothing else, so it is one of its own.
      const subscriber = redis.duplicate();
      subscriber.on('error', (error) => app.log.warn({ err: error }, 'changes: redis unreachable'));
      let readyBefore = false;
      subscriber.on('ready', () => {
        if (!readyBefore) {
          readyBefore = true;
          return;
        }
        // Only once subscribed again is every change from now on heard: what is read again after that stays current.
        subscriber.subscribe(channel).then(
          () => changes.heard({ kind: 'missed' }),
          (error: unknown) => app.log.warn({ err: error }, 'changes: subscribing again failed'),
        );
      });
      subscriber.on('message', (_channel: string, message: string) => {
        const change = decodeChange(instance, message);
        if (change) changes.heard(change);
      });
      await subscriber.subscribe(channel).catch((error) => app.log.warn({ err: error }, 'changes: subscribing failed'));
      app.addHook('onClose', async () => {
        await subscriber.quit().catch(() => subscriber.disconnect());
      });
    }
  },
  { name: 'changes', dependencies: ['metrics', 'redis'], decorators: { fastify: ['db'] } },
);
