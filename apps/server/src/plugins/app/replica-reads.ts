import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Counter, Gauge } from 'prom-client';
import type { Db } from '../../db/index.js';
import type { LaggingReads, Replicas, WalPosition } from '../../db/replicas.js';
import { METRIC_PREFIX } from '../../lib/metrics.js';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Where this request's reads that may lag go (lists, profiles, search, site stats): a replica
     * that has replayed the viewer's last write, or the primary. Writes, transactions and the
     * copies kept in memory always use `app.db`, the primary.
     */
    laggingReads: LaggingReads;
  }
}

/**
 * Keeps the larger of the stored and the given position, so that two writes of one person
 * answered on two instances leave the later one, and keeps it `ARGV[2]` ms longer.
 */
const KEEP_LATER_POSITION = `
local stored = tonumber(redis.call('GET', KEYS[1]))
if stored == nil or stored < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end`;

/**
 * A position no replica reaches: the primary's was not to be had, so the person reads from the primary until it is
 * forgotten.
 */
const UNKNOWN_POSITION = Number.MAX_SAFE_INTEGER;

/** The replicas' lag and use, as gauges; and the counter of calls by where their reads went, returned. */
function replicaMetrics(app: FastifyInstance, replicas: Replicas) {
  const reads = new Counter({
    name: `${METRIC_PREFIX}database_reads_total`,
    help: 'Calls whose reads that may lag went to a replica or to the primary (a person who just wrote, no replica in step), by target',
    labelNames: ['target'] as const,
    registers: [app.metrics],
  });
  new Gauge({
    name: `${METRIC_PREFIX}database_replica_lag_seconds`,
    help: 'How far each replica lags behind the primary, by replica (host:port): how long ago the primary was where it has yet to reach',
    labelNames: ['replica'] as const,
    registers: [app.metrics],
    collect() {
      for (const { name, lagMs } of replicas.states()) if (lagMs !== null) this.set({ replica: name }, lagMs / 1000);
    },
  });
  new Gauge({
    name: `${METRIC_PREFIX}database_replica_in_use`,
    help: 'Whether each replica takes reads (1) or is left out (0): it lags past DATABASE_REPLICA_MAX_LAG_MS or does not answer',
    labelNames: ['replica'] as const,
    registers: [app.metrics],
    collect() {
      for (const { name, inUse } of replicas.states()) this.set({ replica: name }, inUse ? 1 : 0);
    },
  });
  return reads;
}

/**
 * Read-your-writes over replicas, as GitLab's load balancer keeps it: once a signed-in person's
 * write has committed (the answer of any call but GET), the primary's log position is noted for
 * them before the answer is sent, and their reads go to a replica only once it has replayed that
 * far. The position is kept in this instance's memory and in Redis, shared by every instance, for
 * a person's next call may reach another one: the token says who they are, never where their
 * writes are, so it is no cookie's to carry. A token just issued is a write of the person's
 * session that no signed-in call noted: its calls within the lag bound and a second read from the
 * primary, as every replica in use has replayed it after that.
 */
export const replicaReadsPlugin = fp(
  async (app: FastifyInstance) => {
    const { replicas } = app;
    const primary: LaggingReads = { db: app.db, settledMs: 0 };
    if (!replicas) {
      // No replica: every read is the primary's, at no cost per request.
      app.decorateRequest('laggingReads', { getter: () => primary });
      return;
    }
    app.decorateRequest('laggingReads', null as unknown as LaggingReads);
    const { redis } = app;
    /** Past this, every replica in use has replayed a write, and its position is forgotten. */
    const rememberedMs = replicas.settledMs;
    const keyOf = (userId: number) => `${app.config.redisPrefix}written-at:${userId}`;
    /** The last write's position of people who wrote through this instance lately, with when it was noted. */
    const writtenHere = new Map<number, { position: WalPosition; at: number }>();
    const forgetTimer = setInterval(() => {
      const before = Date.now() - rememberedMs;
      for (const [userId, written] of writtenHere) if (written.at < before) writtenHere.delete(userId);
    }, rememberedMs);
    forgetTimer.unref();
    app.addHook('onClose', async () => clearInterval(forgetTimer));

    const reads = replicaMetrics(app, replicas);

    /** The position of the person's last write as far as every instance knows it, 0 when none is remembered. */
    const lastWriteOf = async (userId: number): Promise<WalPosition> => {
      const here = writtenHere.get(userId)?.position ?? 0;
      if (!redis) return here;
      // Redis not answering: their write may be anywhere, so they read from the primary.
      const shared = await redis.get(keyOf(userId)).catch(() => String(UNKNOWN_POSITION));
      return Math.max(here, Number(shared ?? 0));
    };

    const replicaFor = async (request: FastifyRequest): Promise<Db | null> => {
      // A call with no replica in use costs no look-up.
      if (replicas.inStepWith(0) === null) return null;
      if (request.viewerId === null) return replicas.inStepWith(0)?.db ?? null;
      if (Date.now() - request.tokenIssuedAt < rememberedMs) return null;
      return replicas.inStepWith(await lastWriteOf(request.viewerId))?.db ?? null;
    };

    app.addHook('onRequest', async (request) => {
      request.laggingReads = primary;
      const route = request.routeOptions.url;
      if ((request.method !== 'GET' && request.method !== 'HEAD') || route === undefined || !route.startsWith('/api/'))
        return;
      const replica = await replicaFor(request);
      if (replica) request.laggingReads = { db: replica, settledMs: replicas.settledMs };
      reads.inc({ target: replica ? 'replica' : 'primary' });
    });

    // Before the answer leaves: the person's next call, on any instance, must find the position.
    app.addHook('onSend', async (request) => {
      const userId = request.viewerId;
      if (request.method === 'GET' || request.method === 'HEAD' || userId === null) return;
      const position = await replicas.primaryPosition().catch(() => UNKNOWN_POSITION);
      writtenHere.set(userId, { position: Math.max(position, writtenHere.get(userId)?.position ?? 0), at: Date.now() });
      await redis
        ?.eval(KEEP_LATER_POSITION, 1, keyOf(userId), position, rememberedMs)
        .catch((error: unknown) => app.log.warn({ err: error }, 'replica reads: noting a write in redis failed'));
    });
  },
  { name: 'replica-reads', dependencies: ['metrics', 'redis', 'auth'] },
);
