import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerGauge } from '../../lib/metrics.js';
import { UnreadHub, unreadApplier, unreadCount } from '../../modules/notifications/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    unread: UnreadHub;
  }
}

/**
 * The app's unread-count hub, told by each committed change that may move a count: its streams end before the server
 * closes, so clients reconnect elsewhere.
 */
export const unreadPlugin = fp(
  async (app: FastifyInstance) => {
    const hub = new UnreadHub((userId) => unreadCount(app.db, userId), app.log);
    app.decorate('unread', hub);
    app.changes.addApplier(unreadApplier(hub));
    app.addHook('preClose', async () => hub.close());
    registerGauge(
      app.metrics,
      'live_unread_streams',
      'Live streams of unread notification counts open on this instance',
      () => hub.open,
    );
  },
  { name: 'unread', dependencies: ['metrics', 'changes'], decorators: { fastify: ['db'] } },
);
