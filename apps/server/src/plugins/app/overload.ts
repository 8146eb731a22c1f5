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

/** Counts a refusal by its reason and answers it 503, asking the client to come back shortly. */
type Refuse = (reply: FastifyReply, reason: Reason) => void;

function refuserOf(app: FastifyInstance): Refuse {
  const refused = new Counter({
    name: `${METRIC_PREFIX}overload_refused_total`,
    help: 'Requests refused with 503 because the instance was overloaded, by the bound that was passed',
    labelNames: ['reason'] as const,
    registers: [app.metrics],
  });
  return (reply, reason) => {
    refused.inc({ reason });
    const locale = visitorLocale(reply.request.headers);
    const body: ErrorBody = { message: message(locale, 'errors.busy') };
    reply.code(503).header('retry-after', OVERLOAD_RETRY_AFTER_SECONDS).header('content-language', locale).send(body);
  };
}

/** Whether the JavaScript heap is past `megabytes` (0: never), as sampled every SAMPLE_MS. */
function watchHeap(app: FastifyInstance, megabytes: number): { pastBound: boolean } {
  const heap = { pastBound: false };
  if (megabytes <= 0) return heap;
  // The heap is read from V8 itself, which opens no file. process.memoryUsage(), which
  // @fastify/under-pressure sampled, also reads the resident size from /proc: once the
  // process's files ran out, it threw EMFILE from a timer and ended the process.
  const sampleHeap = () => (heap.pastBound = v8.getHeapStatistics().used_heap_size > megabytes * MB);
  sampleHeap();
  const sampler = setInterval(sampleHeap, SAMPLE_MS).unref();
  app.addHook('onClose', async () => clearInterval(sampler));
  return heap;
}

interface AdmissionSettings {
  queueTargetMs: number;
  /** 0: requests still wait their turn, but are never refused (a test's setting). */
  queueTimeoutMs: number;
  /** 0: no bound. */
  requestsInFlight: number;
}

/**
 * The requests in flight and the admission queue of those waiting. A request read while the event loop's turn is
 * young and nothing waits starts at once; otherwise it is queued, and each turn a pump starts a number of queued
 * requests, grown by one while their work stays under the slice and cut in proportion when it ran over. Their work
 * ends before the sockets are read again (it runs in the pump's phase of the loop), so the next read, or the next
 * pump, marks its end.
 */
class Admission {
  inFlight = 0;
  readonly queue: AdmissionQueue<Queued>;
  private readonly shedding: boolean;
  /** When the current turn began reading requests; null between turns. */
  private turnStartedAt: number | null = null;
  private startsPerTurn = 1;
  /**
   * When the last pump began, until the end of the work it started is seen: the next read of a socket, or the next
   * pump.
   */
  private pumpStartedAt: number | null = null;
  private pumpScheduled = false;
  private expiryTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly settings: AdmissionSettings,
    private readonly queueWait: Histogram,
    private readonly refuse: Refuse,
  ) {
    this.queue = new AdmissionQueue<Queued>({
      targetMs: settings.queueTargetMs,
      intervalMs: QUEUE_INTERVAL_MS,
      timeoutMs: settings.queueTimeoutMs > 0 ? settings.queueTimeoutMs : Infinity,
      // A third past the target (200 ms for 150): with its work still to do, a request started later would be answered
      // past the 250 ms a person is promised.
      staleStartMs: (4 * settings.queueTargetMs) / 3,
      fewestToShed: FEWEST_TO_SHED,
      inFlight: () => this.inFlight,
    });
    this.shedding = settings.queueTimeoutMs > 0;
  }

  /** Starts a request just read (`start`), now or when its turn comes. */
  admit(request: FastifyRequest, reply: FastifyReply, start: () => void): void {
    const now = performance.now();
    if (this.turnStartedAt === null) {
      this.startsDone(now);
      this.turnStartedAt = now;
      setImmediate(this.turnEnded);
    }
    if (this.queue.length === 0 && this.roomInFlight() && now - this.turnStartedAt < SLICE_MS) {
      this.queue.startedAtOnce(now);
      this.begin(request, 0);
      return start();
    }
    this.queue.enqueue({ request, reply, start }, now);
    // With every place in flight held (a stalled database), only the timer refuses those who wait too long.
    if (this.roomInFlight()) this.schedulePump();
    else this.keepTimeouts();
  }

  /** The request's answer started, or it ended unsent: its place in flight is free. */
  answered(request: FastifyRequest): void {
    if (!counted.delete(request)) return;
    this.inFlight -= 1;
    if (this.queue.length > 0) this.schedulePump();
  }

  close(): void {
    clearTimeout(this.expiryTimer);
  }

  private readonly turnEnded = () => {
    this.turnStartedAt = null;
  };

  private roomInFlight(): boolean {
    return this.settings.requestsInFlight <= 0 || this.inFlight < this.settings.requestsInFlight;
  }

  private begin(request: FastifyRequest, waitedMs: number): void {
    this.inFlight += 1;
    counted.add(request);
    this.queueWait.observe(waitedMs / 1000);
  }

  private startsDone(now: number): void {
    if (this.pumpStartedAt === null) return;
    const workMs = now - this.pumpStartedAt;
    this.pumpStartedAt = null;
    this.startsPerTurn =
      workMs > SLICE_MS
        ? Math.max(1, Math.floor((this.startsPerTurn * SLICE_MS) / workMs))
        : Math.min(MAX_STARTS_PER_TURN, this.startsPerTurn + 1);
  }

  /** Pumps again soon while requests wait, so that their timeouts are kept when nothing is answered or arrives. */
  private keepTimeouts(): void {
    if (this.expiryTimer !== undefined) return;
    this.expiryTimer = setTimeout(() => {
      this.expiryTimer = undefined;
      this.schedulePump();
    }, 100).unref();
  }

  private schedulePump(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(this.pump);
  }

  private readonly pump = () => {
    this.pumpScheduled = false;
    const now = performance.now();
    this.startsDone(now);
    this.queue.drop(({ request }) => request.raw.socket?.destroyed === true);
    if (this.shedding) for (const { item } of this.queue.expire(now)) this.refuse(item.reply, 'queue_timeout');
    const started = this.startQueued(now);
    if (this.queue.length === 0) return;
    if (started > 0) {
      this.pumpStartedAt = now;
      if (this.roomInFlight()) return this.schedulePump();
    }
    // Nothing more to start now (no room in flight, or every request waiting is left for the
    // timeout): the next answer or arrival pumps again, and the timer keeps the timeouts.
    this.keepTimeouts();
  };

  /** Starts up to this turn's number of queued requests, refusing the stale ones met on the way; how many started. */
  private startQueued(now: number): number {
    let started = 0;
    let handled = 0;
    while (handled < this.startsPerTurn && this.roomInFlight()) {
      handled += 1;
      const next = this.queue.next(now);
      if (next !== null) {
        this.begin(next.item.request, next.waitedMs);
        next.item.start();
        started += 1;
        continue;
      }
      const stale = this.queue.nextToRefuse(now);
      if (stale === null) break;
      // Without shedding (a test's setting) a stale request is started like any other.
      if (this.shedding) this.refuse(stale.item.reply, 'queue_standing');
      else {
        this.begin(stale.item.request, now - stale.readAt);
        stale.item.start();
        started += 1;
      }
    }
    return started;
  }
}

function registerAdmissionGauges(app: FastifyInstance, admission: Admission): void {
  registerGauge(
    app.metrics,
    'requests_in_flight',
    'Requests being answered now (a live stream counts until its first byte)',
    () => admission.inFlight,
  );
  registerGauge(
    app.metrics,
    'requests_queued',
    'Requests read and waiting for work to begin on them',
    () => admission.queue.length,
  );
  registerGauge(
    app.metrics,
    'request_queue_standing',
    '1 while the admission queue stands (started newest first, short timeout), else 0',
    () => (admission.queue.isStanding ? 1 : 0),
  );
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
    const queueWait = new Histogram({
      name: `${METRIC_PREFIX}request_queue_wait_seconds`,
      help: 'How long requests waited between being read and work beginning on them',
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [app.metrics],
    });
    const refuse = refuserOf(app);
    const heap = watchHeap(app, overloadHeapMegabytes);
    const admission = new Admission(
      {
        queueTargetMs: overloadQueueTargetMs,
        queueTimeoutMs: overloadQueueTimeoutMs,
        requestsInFlight: overloadRequestsInFlight,
      },
      queueWait,
      refuse,
    );
    registerAdmissionGauges(app, admission);
    app.addHook('onClose', async () => admission.close());

    app.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.config.alwaysAnswered) return done();
      if (heap.pastBound) return refuse(reply, 'heap');
      admission.admit(request, reply, done);
    });
    const answered = async (request: FastifyRequest) => admission.answered(request);
    // Whichever comes first: the answer starting, or its end when it was never sent (the client left).
    app.addHook('onSend', async (request) => answered(request));
    app.addHook('onResponse', answered);
    app.addHook('onRequestAbort', answered);
  },
  { name: 'overload', dependencies: ['metrics'] },
);
