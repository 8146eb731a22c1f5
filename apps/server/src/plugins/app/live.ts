import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerGauge } from '../../lib/metrics.js';
import { LiveHub, liveApplier } from '../../modules/live/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    live: LiveHub;
  }
}

/**
 * The app's live hub, told by each committed change once the copies it reads have taken it (after the memory plugin):
 * its streams end before the server closes, so clients reconnect elsewhere.
 */
export const livePlugin = fp(
  async (app: FastifyInstance) => {
    const hub = new LiveHub(app.db, app.memory.cards, app.memory.viewers, app.memory.moderation, app.log);
    app.decorate('live', hub);
    app.changes.addApplier(liveApplier(hub));
    app.addHook('preClose', async () => hub.close());
    registerGauge(
      app.metrics,
      'live_result_streams',
      'Live streams of question results open on this instance',
      () => hub.streams,
    );
  },
  { name: 'live', dependencies: ['metrics', 'changes', 'memory', 'event-streams'], decorators: { fastify: ['db'] } },
);
