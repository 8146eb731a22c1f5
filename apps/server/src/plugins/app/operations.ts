import { operations } from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

const TABLE = 'packages/contract/src/operations.ts';

/**
 * Gives each call under /api the operationId and summary the contract's operations table holds
 * for it, so that the routes carry no documentation text and a call added without its entry
 * stops the server at start, naming the entry to add. Must be registered before the routes.
 */
export const operationsPlugin = fp(
  async (app: FastifyInstance) => {
    const named = new Set<string>();
    app.addHook('onRoute', (route) => {
      if (!route.url.startsWith('/api') || route.schema?.hide) return;
      // Fastify adds a HEAD route to every GET; the document leaves those out.
      const methods = [route.method].flat().filter((method) => method !== 'HEAD');
      if (methods.length === 0) return;
      // One schema cannot carry two operationIds.
      if (methods.length > 1)
        throw new Error(
          `${methods.join(', ')} ${route.url}: declare each method of an /api call as a route of its own`,
        );
      const key = `${methods[0]} ${route.url}`;
      const operation = operations[key];
      if (!operation) throw new Error(`'${key}' has no operationId and summary: add it to the operations in ${TABLE}`);
      route.schema = { ...route.schema, ...operation };
      named.add(key);
    });
    // A renamed or removed call must not leave its entry behind.
    app.addHook('onReady', async () => {
      const stale = Object.keys(operations).filter((key) => !named.has(key));
      if (stale.length > 0)
        throw new Error(`The operations in ${TABLE} name calls that do not exist: ${stale.join(', ')}`);
    });
  },
  { name: 'operations' },
);
