import type { ErrorBody } from '@pollscope/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import v8 from 'node:v8';
import { Counter } from 'prom-client';
import { METRIC_PREFIX, registerGauge } from '../../lib/metrics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answered even when the instance sheds load: liveness, readiness and metrics matter most then. */
    alwaysAnswered?: boolean;
  }
}

/** How long a refused client is asked to wait: long enough for a burst to pass, short enough not to lose a person. */
export const OVERLOAD_RETRY_AFTER_SECONDS = 2;
const MB = 2 ** 20;
/** How often the heap is sampled: each sample decides until the next. */
const SAMPLE_MS = 100;

type Reason = 'event_loop_delay' | 'heap' | 'requests_in_flight';

/** Requests counted in flight, until their answer starts (a live stream's starts at once, and then it is no load). */
const counted = new WeakSet<FastifyRequest>();

/**
 * Sheds load: past a bound on the time the event loop's current turn has been answering
 * requests, on the JavaScript heap, or on the requests being answered at once, a request is
 * answered 503 with Retry-After at once, before any work is done for it, instead of every request
 * waiting longer and longer. Each bound is checked again for every request (the heap every tenth
 * of a second), so the instance takes requests again by itself as soon as the load falls.
 * Registered before every other hook.
 */
export const overloadPlugin = fp(
  async (app: FastifyInstance) => {
    const { overloadEventLoopDelayMs, overloadHeapMegabytes, overloadRequestsInFlight } = app.config;
    const refused = new Counter({
      name: `${METRIC_PREFIX}overload_refused_total`,
      help: 'Requests refused with 503 because the instance was overloaded, by the bound that was passed',
      labelNames: ['reason'] as const,
      registers: [app.metrics],
    });
    const shed = (request: FastifyRequest, reply: FastifyReply, reason: Reason): boolean => {
      if (request.routeOptions.config.alwaysAnswered) return false;
      refused.inc({ reason });
      const body: ErrorBody = { message: 'The service is busy, try again in a few seconds' };
      reply.code(503).header('retry-after', OVERLOAD_RETRY_AFTER_SECONDS).send(body);
      return true;
    };

    // The heap is read from V8 itself, which opens no file. process.memoryUsage(), which
    // @fastify/under-pressure sampled, also reads the resident size from /proc: once the
    // process's files ran out, it threw EMFILE from a timer and ended the process.
    let heapPastBound = false;
    if (overloadHeapMegabytes > 0) {
      const sampleHeap = () => (heapPastBound = v8.getHeapStatistics().used_heap_size > overloadHeapMegabytes * MB);
      sampleHeap();
      const sampler = setInterval(sampleHeap, SAMPLE_MS).unref();
      app.addHook('onClose', async () => clearInterval(sampler));
    }

    let inFlight = 0;
    registerGauge(app.metrics, 'requests_in_flight', 'Requests being answered now (a live stream counts until its first byte)', () => inFlight);
    const answered = async (request: FastifyRequest) => {
      if (counted.delete(request)) inFlight -= 1;
    };
    // Requests that arrive together are answered one after another in one turn of the event
    // loop, and each waits for all those before it. Once turns have run past the bound one after
    // another for four times the bound (a queue that stays, not a collection of garbage or a batch of
    // votes written once), the rest of each turn past the bound is refused at once, cheaply: the
    // requests taken are then answered within about twice the bound however many arrive.
    const standingMs = 4 * overloadEventLoopDelayMs;
    let turnStartedAt: number | null = null;
    /** When the turns began to run past the bound one after another; null once one did not. */
    let longSince: number | null = null;
    let lastTurnEndedAt = -Infinity;
    let queueStanding = false;
    const turnEnded = () => {
      const now = performance.now();
      longSince = now - turnStartedAt! > overloadEventLoopDelayMs ? (longSince ?? turnStartedAt) : null;
      lastTurnEndedAt = now;
      turnStartedAt = null;
    };
    app.addHook('onRequest', async (request, reply) => {
      if (heapPastBound && shed(request, reply, 'heap')) return reply;
      const now = performance.now();
      if (turnStartedAt === null) {
        // A pause between turns is no queue.
        if (now - lastTurnEndedAt > overloadEventLoopDelayMs) longSince = null;
        queueStanding = longSince !== null && now - longSince >= standingMs;
        turnStartedAt = now;
        setImmediate(turnEnded);
      } else if (overloadEventLoopDelayMs > 0 && queueStanding && now - turnStartedAt > overloadEventLoopDelayMs && shed(request, reply, 'event_loop_delay')) {
        return reply;
      }
      if (overloadRequestsInFlight > 0 && inFlight >= overloadRequestsInFlight && shed(request, reply, 'requests_in_flight')) return reply;
      inFlight += 1;
      counted.add(request);
    });
    // Whichever comes first: the answer starting, or its end when it was never sent (the client left).
    app.addHook('onSend', async (request) => answered(request));
    app.addHook('onResponse', answered);
    app.addHook('onRequestAbort', answered);
  },
  { name: 'overload', dependencies: ['metrics'] },
);
