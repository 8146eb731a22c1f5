import { describe, expect, it } from 'vitest';
import { AdmissionQueue } from './admission-queue.js';

const settings = {
  targetMs: 200,
  intervalMs: 100,
  timeoutMs: 2000,
  staleStartMs: 400,
  fewestToShed: 0,
  inFlight: () => 0,
};

/** Requests read at the given times, named by their order. */
function queueOf(readAt: number[]): AdmissionQueue<string> {
  const queue = new AdmissionQueue<string>(settings);
  readAt.forEach((at, index) => queue.enqueue(`r${index}`, at));
  return queue;
}

describe('the admission queue', () => {
  it('starts the oldest first while it drains, with how long each waited', () => {
    const queue = queueOf([0, 1, 2]);
    expect(queue.next(5)).toMatchObject({ item: 'r0', waitedMs: 5 });
    expect(queue.next(6)).toMatchObject({ item: 'r1', waitedMs: 5 });
    expect(queue.isStanding).toBe(false);
  });

  it('stands once the shortest wait of a whole interval passed the target, then starts the newest first', () => {
    const queue = new AdmissionQueue<string>(settings);
    // 1,000 people each asking again at once when answered, for a server starting 4 a millisecond:
    // every request waits about 250 ms.
    let read = 0;
    for (; read < 1000; read += 1) queue.enqueue(`r${read}`, 0);
    let now = 0;
    for (; now < 600 && !queue.isStanding; now += 1) {
      for (let start = 0; start < 4; start += 1) {
        expect(queue.next(now)).not.toBeNull();
        queue.enqueue(`r${read++}`, now);
      }
    }
    expect(queue.isStanding).toBe(true);
    // Standing: the request read last is started first.
    queue.enqueue('newest', now);
    expect(queue.next(now)).toMatchObject({ item: 'newest', waitedMs: 0 });
  });

  it('refuses past the timeout, standing or not', () => {
    const draining = queueOf([0, 1000, 2500]);
    expect(draining.expire(2500).map((waiting) => waiting.item)).toEqual(['r0']);
    expect(draining.length).toBe(2);

    const standing = standingQueue();
    standing.enqueue('late', 2100);
    expect(standing.expire(2200).map((waiting) => waiting.item)).toEqual([
      'old1',
      'old2',
      ...Array.from({ length: 50 }, (_, index) => `r${index}`),
    ]);
    expect(standing.next(2200)).toMatchObject({ item: 'late', waitedMs: 100 });
  });

  it('once it stands, leaves those that waited past the target for the queue to drain or the timeout', () => {
    const queue = standingQueue();
    // Nothing was read in the last 200 ms: nothing is started, and nothing refused yet.
    expect(queue.next(351)).toBeNull();
    expect(queue.expire(351)).toEqual([]);
    queue.enqueue('fresh', 351);
    expect(queue.next(352)).toMatchObject({ item: 'fresh', waitedMs: 1 });
    expect(queue.length).toBe(52);
  });

  it('once it stands, refuses the stale while first in, first out could not clear the queue in time, else starts them first', () => {
    expect(queueOf([0, 1]).nextToRefuse(500)).toBeNull();
    const queue = standingQueue();
    // No start measured yet at this rate: 52 waiting cannot be cleared within the target.
    expect(queue.nextToRefuse(210)).toMatchObject({ item: 'old1' });
    // 45 started in the next interval: at that rate the 6 left clear within the target, the stale first.
    for (let index = 0; index < 45; index += 1) queue.next(250);
    queue.enqueue('fresh', 305);
    queue.expire(310);
    expect(queue.nextToRefuse(310)).toBeNull();
    expect(queue.next(310)).toMatchObject({ item: 'old2', waitedMs: 320 });
    expect(queue.next(310)).toMatchObject({ item: 'fresh' });
  });

  it('takes a pause in which nothing started for no standing queue', () => {
    const queue = queueOf([0, 1]);
    queue.expire(0);
    // The process did nothing for half a second: the requests waited, but nothing was measured.
    expect(queue.expire(500)).toEqual([]);
    expect(queue.isStanding).toBe(false);
    expect(queue.next(500)).toMatchObject({ item: 'r0', waitedMs: 500 });
  });

  /** A queue that stands at 210 ms, with 50 requests read at 150 ms above 2 read before them. */
  function standingQueue(): AdmissionQueue<string> {
    const queue = new AdmissionQueue<string>(settings);
    for (let index = 0; index < 3; index += 1) queue.enqueue(`old${index}`, -10);
    queue.expire(0);
    queue.expire(100);
    for (let index = 0; index < 50; index += 1) queue.enqueue(`r${index}`, 150);
    // The only request started in the interval from 100 to 200 ms had waited past the target.
    expect(queue.next(199)?.item).toBe('old0');
    expect(queue.expire(210)).toEqual([]);
    expect(queue.isStanding).toBe(true);
    return queue;
  }

  it('drains again once first in, first out would clear it within the target, none left past it', () => {
    const queue = new AdmissionQueue<string>(settings);
    for (let index = 0; index < 10; index += 1) queue.enqueue(`stale${index}`, -160);
    queue.expire(0);
    expect(queue.next(50)?.item).toBe('stale0');
    queue.expire(100);
    expect(queue.isStanding).toBe(true);
    for (let index = 0; index < 30; index += 1) queue.enqueue(`fresh${index}`, 100);
    // 20 started in the next interval: at that rate the 19 left would wait 95 ms…
    for (let index = 0; index < 20; index += 1) expect(queue.next(150)?.item).toBe(`fresh${29 - index}`);
    // …but first in, first out would start the stale ones first: it stands until they are gone,
    // started first, since the queue clears within the target.
    queue.expire(200);
    expect(queue.isStanding).toBe(true);
    for (let index = 1; index < 10; index += 1) expect(queue.next(200)?.item).toBe(`stale${index}`);
    for (let index = 0; index < 5; index += 1) queue.next(250);
    queue.expire(300);
    expect(queue.isStanding).toBe(false);
    expect(queue.next(300)).toMatchObject({ item: 'fresh0', waitedMs: 200 });
  });

  it('never starts, once it stands, a request that waited past starting: it is refused with spare time', () => {
    const queue = standingQueue();
    for (let index = 0; index < 45; index += 1) queue.next(250);
    // The queue clears within the target at this rate, but old1 and old2 have waited 410 ms, past the 400 for starting.
    queue.enqueue('fresh', 395);
    queue.expire(400);
    expect(queue.next(400)).toMatchObject({ item: 'fresh' });
    expect(queue.next(400)).toBeNull();
    expect([queue.nextToRefuse(400)?.item, queue.nextToRefuse(400)?.item, queue.nextToRefuse(400)]).toEqual([
      'old1',
      'old2',
      null,
    ]);
    // Those left waited 250 ms: stale, and started first.
    expect(queue.next(400)).toMatchObject({ item: 'r0', waitedMs: 250 });
  });

  it('stays standing while first in, first out would not clear it within the target', () => {
    const queue = standingQueue();
    // 10 started: the 42 left would wait 420 ms.
    for (let index = 0; index < 10; index += 1) queue.next(250);
    queue.expire(310);
    expect(queue.isStanding).toBe(true);
  });

  it('serves few waiting or under way first in, first out, refusing none but past the timeout', () => {
    /** Requests started and not yet answered. */
    let inFlight = 0;
    const queue = new AdmissionQueue<string>({ ...settings, fewestToShed: 100, inFlight: () => inFlight });
    for (let index = 0; index < 3; index += 1) queue.enqueue(`old${index}`, -10);
    queue.expire(0);
    queue.expire(100);
    for (let index = 0; index < 50; index += 1) queue.enqueue(`r${index}`, 150);
    expect(queue.next(199)?.item).toBe('old0');
    queue.expire(210);
    // 52 waiting and 60 under way: more than the fewest to shed, and past the target, the queue stands.
    inFlight = 60;
    expect(queue.isStanding).toBe(true);
    expect(queue.nextToRefuse(210)).toMatchObject({ item: 'old1' });
    // 51 waiting and 20 under way: those few are started oldest first, however long they waited.
    inFlight = 20;
    expect(queue.isStanding).toBe(false);
    expect(queue.nextToRefuse(1500)).toBeNull();
    expect(queue.next(1500)).toMatchObject({ item: 'old2', waitedMs: 1510 });
    expect(queue.next(1500)).toMatchObject({ item: 'r0', waitedMs: 1350 });
    expect(queue.expire(2200).map((waiting) => waiting.item)).toEqual(
      Array.from({ length: 49 }, (_, index) => `r${index + 1}`),
    );
  });

  it('is no longer standing once empty', () => {
    const queue = standingQueue();
    for (let index = 0; index < 50; index += 1) queue.next(250);
    expect(queue.isStanding).toBe(true);
    // The two left at the bottom reach the timeout.
    expect(queue.expire(2100)).toHaveLength(2);
    expect(queue.isStanding).toBe(false);
  });

  it('does not stand while requests are started at once on arrival', () => {
    const queue = new AdmissionQueue<string>(settings);
    queue.enqueue('slow', 0);
    for (let now = 0; now < 1000; now += 10) queue.startedAtOnce(now);
    queue.expire(1000);
    expect(queue.isStanding).toBe(false);
  });

  it('leaves out those whose client left', () => {
    const queue = queueOf([0, 1, 2]);
    queue.drop((item) => item === 'r1');
    expect([queue.next(3)?.item, queue.next(3)?.item, queue.next(3)]).toEqual(['r0', 'r2', null]);
  });
});
