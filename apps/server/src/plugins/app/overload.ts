import type { ErrorBody } from '@pollscope/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import v8 from 'node:v8';
import { Counter, Histogram } from 'prom-client';
import { METRIC_PREFIX, registerGauge } from '../../lib/metrics.js';
import { visitorLocale } from '../../i18n/locale.js';
import { message } from '../../i18n/messages.js';
import { AdmissionQueue } from '../../modules/health/index.js';

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
/**
 * The event loop's time per turn for starting queued requests. Sockets are read between turns, so
 * a request waits in them at most about this long before it is read and its wait is measured.
 */
const SLICE_MS = 10;
/** The most queued requests started in one turn. */
const MAX_STARTS_PER_TURN = 256;

/** The admission queue stands when every request started in this long waited past the target. */
const QUEUE_INTERVAL_MS = 500;
/**
 * Up to this many requests waiting or under way, none is refused but past the timeout: a load of a few hundred people
 * is carried as a queue that drains, even on a machine too slow to answer them all within the target.
 */
const FEWEST_TO_SHED = 256;
/** Past the queue's timeout, past its target once it stands (with time to spare), or past the heap's bound. */
type Reason = 'queue_timeout' | 'queue_standing' | 'heap';

/** Requests counted in flight, until their answer starts (a live stream's starts at once, and then it is no load). */
const counted = new WeakSet<FastifyRequest>();

interface Queued {
  request: FastifyRequest;
  reply: FastifyReply;
  start: () => void;
}

/**
 * Sheds load before any work is done, by how long requests wait rather than by how busy the machine
 * looks, so that the rule holds on a machine of any speed. Every request read is started at once
 * while the event loop's turn is young and nothing waits; otherwise it joins the admission queue
 * (`admission-queue.ts`: CoDel's standing-queue test, adaptive LIFO once more than FEWEST_TO_SHED
 * wait or are under way), from which each turn starts requests for about SLICE_MS. Its wait, from
 * the moment it was read to the moment work began, is measured; past the queue's timeout it is
 * answered 503 with Retry-After. Past a bound on the JavaScript heap, requests are refused at once.
 * Registered before every other hook.
 */
export const overloadPlugin = fp(
  async (app: FastifyInstance) => {
    const { overloadQueueTargetMs, overloadQueueTimeoutMs, overloadHeapMegabytes, overloadRequestsInFlight } =
      app.config;
    const refused = new Counter({
      name: `${METRIC_PREFIX}overload_refused_total`,
      help: 'Requests refused with 503 because the instance was overloaded, by the bound that was passed',
      labelNames: ['reason'] as const,
      registers: [app.metrics],
    });
    const queueWait = new Histogram({
      name: `${METRIC_PREFIX}request_queue_wait_seconds`,
      help: 'How long requests waited between being read and work beginning on them',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [app.metrics],
    });
    const refuse = (reply: FastifyReply, reason: Reason) => {
      refused.inc({ reason });
      const locale = visitorLocale(reply.request.headers);
      const body: ErrorBody = { message: message(locale, 'errors.busy') };
      reply.code(503).header('retry-after', OVERLOAD_RETRY_AFTER_SECONDS).header('content-language', locale).send(body);
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
    const queue = new AdmissionQueue<Queued>({
      targetMs: overloadQueueTargetMs,
      intervalMs: QUEUE_INTERVAL_MS,
      // Without shedding (a test's setting), requests still wait their turn; they are only never refused.
      timeoutMs: overloadQueueTimeoutMs > 0 ? overloadQueueTimeoutMs : Infinity,
      // A third past the target (200 ms for 150): with its work still to do, a request started later would be answered
      // past the 250 ms a person is promised.
      staleStartMs: (4 * overloadQueueTargetMs) / 3,
      fewestToShed: FEWEST_TO_SHED,
      inFlight: () => inFlight,
    });
    const shedding = overloadQueueTimeoutMs > 0;
    registerGauge(
      app.metrics,
      'requests_in_flight',
      'Requests being answered now (a live stream counts until its first byte)',
      () => inFlight,
    );
    registerGauge(
      app.metrics,
      'requests_queued',
      'Requests read and waiting for work to begin on them',
      () => queue.length,
    );
    registerGauge(
      app.metrics,
      'request_queue_standing',
      '1 while the admission queue stands (started newest first, short timeout), else 0',
      () => (queue.isStanding ? 1 : 0),
    );
    const roomInFlight = () => overloadRequestsInFlight <= 0 || inFlight < overloadRequestsInFlight;
    const begin = (request: FastifyRequest, waitedMs: number) => {
      inFlight += 1;
      counted.add(request);
      queueWait.observe(waitedMs / 1000);
    };

    /** When the current turn began reading requests; null between turns. */
    let turnStartedAt: number | null = null;
    const turnEnded = () => (turnStartedAt = null);
    let startsPerTurn = 1;
    /**
     * When the last pump began, until the end of the work it started is seen: the next read of a socket, or the next
     * pump.
     */
    let pumpStartedAt: number | null = null;
    const startsDone = (now: number) => {
      if (pumpStartedAt === null) return;
      const workMs = now - pumpStartedAt;
      pumpStartedAt = null;
      startsPerTurn =
        workMs > SLICE_MS
          ? Math.max(1, Math.floor((startsPerTurn * SLICE_MS) / workMs))
          : Math.min(MAX_STARTS_PER_TURN, startsPerTurn + 1);
    };
    let pumpScheduled = false;
    let expiryTimer: NodeJS.Timeout | undefined;
    app.addHook('onClose', async () => clearTimeout(expiryTimer));
    /** Pumps again soon while requests wait, so that their timeouts are kept when nothing is answered or arrives. */
    const keepTimeouts = () => {
      if (expiryTimer !== undefined) return;
      expiryTimer = setTimeout(() => {
        expiryTimer = undefined;
        schedulePump();
      }, 100).unref();
    };
    const schedulePump = () => {
      if (pumpScheduled) return;
      pumpScheduled = true;
      setImmediate(pump);
    };
    // Each turn starts a number of queued requests, grown by one while their work stays under the
    // slice and cut in proportion when it ran over. Their work ends before the sockets are read again
    // (it runs in the pump's phase of the loop), so the next read, or the next pump, marks its end.
    function pump() {
      pumpScheduled = false;
      const now = performance.now();
      startsDone(now);
      queue.drop(({ request }) => request.raw.socket?.destroyed === true);
      if (shedding) for (const { item } of queue.expire(now)) refuse(item.reply, 'queue_timeout');
      let started = 0;
      let handled = 0;
      while (handled < startsPerTurn && roomInFlight()) {
        handled += 1;
        const next = queue.next(now);
        if (next !== null) {
          begin(next.item.request, next.waitedMs);
          next.item.start();
          started += 1;
          continue;
        }
        const stale = queue.nextToRefuse(now);
        if (stale === null) break;
        // Without shedding (a test's setting) a stale request is started like any other.
        if (shedding) refuse(stale.item.reply, 'queue_standing');
        else {
          begin(stale.item.request, now - stale.readAt);
          stale.item.start();
          started += 1;
        }
      }
      if (queue.length === 0) return;
      if (started > 0) {
        pumpStartedAt = now;
        if (roomInFlight()) return schedulePump();
      }
      // Nothing more to start now (no room in flight, or every request waiting is left for the
      // timeout): the next answer or arrival pumps again, and the timer keeps the timeouts.
      keepTimeouts();
    }

    const answered = async (request: FastifyRequest) => {
      if (!counted.delete(request)) return;
      inFlight -= 1;
      if (queue.length > 0) schedulePump();
    };
    app.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.config.alwaysAnswered) return done();
      if (heapPastBound) return refuse(reply, 'heap');
      const now = performance.now();
      if (turnStartedAt === null) {
        startsDone(now);
        turnStartedAt = now;
        setImmediate(turnEnded);
      }
      if (queue.length === 0 && roomInFlight() && now - turnStartedAt < SLICE_MS) {
        queue.startedAtOnce(now);
        begin(request, 0);
        return done();
      }
      queue.enqueue({ request, reply, start: done }, now);
      // With every place in flight held (a stalled database), only the timer refuses those who wait too long.
      if (roomInFlight()) schedulePump();
      else keepTimeouts();
    });
    // Whichever comes first: the answer starting, or its end when it was never sent (the client left).
    app.addHook('onSend', async (request) => answered(request));
    app.addHook('onResponse', answered);
    app.addHook('onRequestAbort', answered);
  },
  { name: 'overload', dependencies: ['metrics'] },
);
