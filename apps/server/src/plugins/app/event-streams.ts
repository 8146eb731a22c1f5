import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EventStreams } from '../../modules/live/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    eventStreams: EventStreams;
  }
}

/** The instance's event streams, for the live results' routes and the unread counts'. */
export const eventStreamsPlugin = fp(
  async (app: FastifyInstance) => {
    app.decorate('eventStreams', new EventStreams(app.config.liveHeartbeatSeconds, app.config.liveStreamsPerPerson));
  },
  { name: 'event-streams', decorators: { fastify: ['config'] } },
);
