import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { randomUUID } from 'node:crypto';
import { Counter } from 'prom-client';
import type { Db } from '../../db/index.js';
import { METRIC_PREFIX } from '../../lib/metrics.js';
import { applyChange } from '../../changes/apply.js';
import { decodeChange, encodeChange, type Change, type HeardChange } from '../../changes/change.js';
import { commitWrite, type Made } from '../../changes/commit.js';

declare module 'fastify' {
  interface FastifyInstance {
    changes: Changes;
  }
}

export interface Changes {
  /**
   * Runs `write` in a transaction, with what its changes cause (changes/commit.ts), and once it
   * has committed applies all their changes here and tells the other instances. Returns what
   * `write` returned.
   */
  commit<M extends Made>(write: (trx: Db) => Promise<M>): Promise<M>;
  /**
   * Commits as `commit` does, and returns every change committed, stamped with its state version: the vote writer
   * answers each vote with its own.
   */
  commitChanges(write: (trx: Db) => Promise<Made>): Promise<readonly Change[]>;
}

/**
 * The one path of every committed change: applied to this instance's memory and live streams,
 * and published on the one Redis channel every instance hears, whose changes go through the same
 * `applyChange`. Publishing never fails a request: the change is committed, and an instance that
 * could not hear it is told `missed` once Redis is back: by its own connection, subscribed again,
 * and by the instance whose change could not be published, once its connection is back.
 */
export const changesPlugin = fp(
  async (app: FastifyInstance) => {
    const { redis, memory } = app;
    const streams = { live: app.live, unread: app.unread, eventStreams: app.eventStreams };
    const instance = randomUUID();
    const channel = `${app.config.redisPrefix}changes`;

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
          () => applyChange(memory, streams, { kind: 'missed' }, 'elsewhere'),
          (error: unknown) => app.log.warn({ err: error }, 'changes: subscribing again failed'),
        );
      });
      subscriber.on('message', (_channel: string, message: string) => {
        const change = decodeChange(instance, message);
        if (change) applyChange(memory, streams, change, 'elsewhere');
      });
      await subscriber.subscribe(channel).catch((error) => app.log.warn({ err: error }, 'changes: subscribing failed'));
      app.addHook('onClose', async () => {
        await subscriber.quit().catch(() => subscriber.disconnect());
      });
    }

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

    const committed = (changes: readonly Change[]) => {
      for (const change of changes) {
        committedHere.inc({ kind: change.kind });
        applyChange(memory, streams, change, 'here');
        void publish(change);
      }
    };

    const commit = async <M extends Made>(write: (trx: Db) => Promise<M>) => {
      const done = await commitWrite(app.db, write);
      committed(done.changes);
      return done;
    };
    app.decorate('changes', {
      commit: async (write) => (await commit(write)).made,
      commitChanges: async (write) => (await commit(write)).changes,
    } satisfies Changes);
  },
  { name: 'changes', dependencies: ['metrics', 'redis', 'memory', 'live', 'unread', 'event-streams'] },
);
