/**
 * The admission queue (`src/modules/health/admission-queue.ts`) driven by a simulated instance and
 * clients, as the overload plugin drives it, in simulated time: each client asks again at once when
 * answered, as autocannon does. A run takes seconds and no cores of the machine's own, so variants
 * of the rule can be compared before the benchmark measures the one kept.
 *
 *   npx tsx bench/admission-simulation.ts [--clients 1000] [--service-ms 0.15] [--pause-every-ms 0 --pause-ms 0]
 *                                         [--stale-start-ms 200] [--fewest-to-shed 256] [--seconds 30]
 *
 * The instance reads every request that arrived between turns (reading one costs --read-ms), starts
 * one at once when nothing waits and the turn is young, else queues it; each turn then starts queued
 * requests (each costs --service-ms, give or take 90%) for about 10 ms, and refuses those the queue
 * gives up. A pause (a collection of garbage, a busy machine) stops everything for --pause-ms.
 */
import { parseArgs } from 'node:util';
import { AdmissionQueue } from '../src/modules/health/index.js';

const { values } = parseArgs({
  options: {
    clients: { type: 'string', default: '1000' },
    'service-ms': { type: 'string', default: '0.15' },
    'read-ms': { type: 'string', default: '0.02' },
    'refuse-ms': { type: 'string', default: '0.04' },
    'target-ms': { type: 'string', default: '150' },
    'interval-ms': { type: 'string', default: '500' },
    'timeout-ms': { type: 'string', default: '2000' },
    'stale-start-ms': { type: 'string', default: '200' },
    'fewest-to-shed': { type: 'string', default: '256' },
    'pause-every-ms': { type: 'string', default: '0' },
    'pause-ms': { type: 'string', default: '0' },
    seconds: { type: 'string', default: '30' },
  },
});
const setting = (name: keyof typeof values) => Number(values[name]);

const SLICE_MS = 10;
const MAX_STARTS_PER_TURN = 256;
/** Unmeasured time at the start, while the queue finds its state. */
const WARMUP_MS = 5_000;
const ROUND_TRIP_MS = 0.1;
const SERVICE_SPREAD = 0.9;

interface Request {
  sentAt: number;
}

function simulate() {
  const serviceMs = setting('service-ms');
  const durationMs = WARMUP_MS + setting('seconds') * 1000;
  const queue = new AdmissionQueue<Request>({
    targetMs: setting('target-ms'),
    intervalMs: setting('interval-ms'),
    timeoutMs: setting('timeout-ms'),
    staleStartMs: setting('stale-start-ms'),
    fewestToShed: setting('fewest-to-shed'),
    // Each request is answered as it starts.
    inFlight: () => 0,
  });
  let now = 0;
  let arriving: Request[] = Array.from({ length: setting('clients') }, () => ({ sentAt: Math.random() * 5 }));
  const latencies: number[] = [];
  let refused = 0;
  let turnsStanding = 0;
  let turns = 0;
  let startsPerTurn = 1;
  let nextPauseAt = setting('pause-every-ms') || Infinity;

  const answer = (request: Request, served: boolean) => {
    if (now > WARMUP_MS) {
      if (served) latencies.push(now - request.sentAt);
      else refused += 1;
    }
    arriving.push({ sentAt: now + ROUND_TRIP_MS });
  };
  const serve = (request: Request) => {
    now += serviceMs * (1 + SERVICE_SPREAD * (Math.random() * 2 - 1));
    answer(request, true);
  };
  const refuse = (request: Request) => {
    now += setting('refuse-ms');
    answer(request, false);
  };

  while (now < durationMs) {
    if (now >= nextPauseAt) {
      now += setting('pause-ms');
      nextPauseAt += setting('pause-every-ms');
    }
    // Reading the sockets: every request that has arrived by now.
    arriving.sort((a, b) => a.sentAt - b.sentAt);
    const turnStartedAt = now;
    const arrived = arriving.filter((request) => request.sentAt <= now);
    arriving = arriving.slice(arrived.length);
    for (const request of arrived) {
      now += setting('read-ms');
      if (queue.length === 0 && now - turnStartedAt < SLICE_MS) {
        queue.startedAtOnce(now);
        serve(request);
      } else queue.enqueue(request, now);
    }
    // The pump: as overload.ts, with the time of the turn's start.
    const pumpStartedAt = now;
    for (const { item } of queue.expire(now)) refuse(item);
    for (let handled = 0; handled < startsPerTurn; handled += 1) {
      const next = queue.next(pumpStartedAt);
      if (next !== null) {
        serve(next.item);
        continue;
      }
      const stale = queue.nextToRefuse(pumpStartedAt);
      if (stale === null) break;
      refuse(stale.item);
    }
    const workMs = now - pumpStartedAt;
    startsPerTurn =
      workMs > SLICE_MS
        ? Math.max(1, Math.floor((startsPerTurn * SLICE_MS) / workMs))
        : Math.min(MAX_STARTS_PER_TURN, startsPerTurn + 1);
    turns += 1;
    if (queue.isStanding) turnsStanding += 1;
    now =
      queue.length === 0 && arriving.length > 0
        ? Math.max(now, Math.min(...arriving.map((request) => request.sentAt)))
        : now + 0.01;
  }

  latencies.sort((a, b) => a - b);
  const percentile = (share: number) => latencies[Math.floor((latencies.length - 1) * share)] ?? NaN;
  const seconds = setting('seconds');
  console.log(
    [
      `answered ${Math.round(latencies.length / seconds)}/s`,
      `refused ${Math.round(refused / seconds)}/s`,
      `p50 ${percentile(0.5).toFixed(1)} ms`,
      `p99 ${percentile(0.99).toFixed(1)} ms`,
      `slowest ${percentile(1).toFixed(0)} ms`,
      `standing ${Math.round((turnsStanding / turns) * 100)}% of turns`,
    ].join(', '),
  );
}

simulate();
