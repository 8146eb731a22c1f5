import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { tellOf } from '../../modules/notifications/index.js';
import { countActivityOf } from '../../modules/site/index.js';

/**
 * What every write's changes cause in its transaction besides their people's rows, registered with the change layer in
 * the order every write then locks rows in: who is told of what people did (notifications), then the site chart,
 * which every write counts on, last.
 */
export const causesPlugin = fp(
  async (app: FastifyInstance) => {
    app.changes.addCause(tellOf);
    app.changes.addCause(countActivityOf);
  },
  { name: 'causes', dependencies: ['changes'] },
);
