import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EventStreams, eventStreamsApplier } from '../../modules/live/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    eventStreams: EventStreams;
  }
}

/**
 * The instance's event streams, for the live results' routes and the unread counts': those of a session end with it,
 * after the sessions kept in memory forgot it (the memory plugin's applier).
 */
export const eventStreamsPlugin = fp(
  async (app: FastifyInstance) => {
    const streams = new EventStreams(app.config.liveHeartbeatSeconds, app.config.liveStreamsPerPerson);
    app.decorate('eventStreams', streams);
    app.changes.addApplier(eventStreamsApplier(streams));
  },
  { name: 'event-streams', dependencies: ['changes', 'memory'], decorators: { fastify: ['config'] } },
);
