/**
 * The queue requests wait in between the moment they are read and the moment work begins on them,
 * with CoDel's rule for telling a queue that stands from one that drains, and adaptive LIFO once one
 * stands ("Fail at Scale", Maurer, ACM Queue 2015). It keeps no clock of its own: every call is
 * given the time, so that tests drive it turn by turn.
 *
 * - Draining: first in, first out.
 * - Standing, when the shortest wait of the requests started in a whole `intervalMs` was above
 *   `targetMs` (as CoDel: a burst drains within an interval, a standing queue never does): the
 *   newest request is started first, since its client is the likeliest still to be waiting, and
 *   only while it has waited at most the target. So those served wait less than the target however
 *   long the queue. Those below are refused, as CoDel refuses past the target once the queue stands,
 *   but only while first in, first out could not clear the queue within the target, and with the
 *   time a turn has left once no fresh request waits (`nextToRefuse`): refusals never take the
 *   place of answers, and a client that asks again at once comes back fresh. A queue that clears
 *   within the target (one that stood through a pause of the process) starts them first instead,
 *   but none that waited past `staleStartMs`: a queue that keeps flipping between standing and
 *   clearing (many clients, each asking again at once) would otherwise answer those it kept
 *   waiting, at the end of their wait.
 * - Only while more than `fewestToShed` requests wait or are under way: fewer are served first in, first out. Each
 *   client asks again once answered, so a few hundred are a queue that drains, however slow the machine; refusing
 *   some would only turn answers into 503s.
 * - Either way, a request that has waited `timeoutMs` is refused.
 * - The interval is a few times the target, where CoDel's is 20 times: a pause of the process (a
 *   collection of garbage, a busy machine) makes every request waiting through it late, and the
 *   queue must have had the time to drain after it before it is taken to stand.
 * - It drains again once first in, first out would clear it within the target at the rate requests
 *   were started in the last intervals (the wait LIFO hides, by Little's law), and none of those left
 *   has waited past the target (first in, first out would start those first); or once it is empty.
 * - An interval in which nothing started (the process was paused, or every slot in flight was
 *   taken) decides nothing: a pause is no standing queue, and the timeouts still apply.
 */
/** How many of the last intervals tell what the instance can start. */
const RECENT_INTERVALS = 4;

export interface AdmissionSettings {
  targetMs: number;
  intervalMs: number;
  timeoutMs: number;
  /** While the queue stands, none that waited longer is started: its answer would come too late to count as one. */
  staleStartMs: number;
  /**
   * While at most this many requests are waiting or under way, the queue is served first in, first out and refuses
   * nothing but past the timeout, whatever their waits: each client asks again once answered, so refusing one of so
   * few shortens no queue, it only answers 503 where an answer would have come.
   */
  fewestToShed: number;
  /** The requests started and not yet answered: they wait too (for the database, for their turn). */
  inFlight: () => number;
}

export interface Waiting<T> {
  item: T;
  readAt: number;
}

export class AdmissionQueue<T> {
  /** Oldest first; `head` is the index of the oldest still waiting (shifting an array is O(n)). */
  private waiting: Waiting<T>[] = [];
  private head = 0;
  private standing = false;
  private intervalEndsAt: number | null = null;
  private shortestWait = Infinity;
  private startedInInterval = 0;
  /** Requests started in each of the last intervals, newest last: the most of them is what the instance can start. */
  private startedInRecentIntervals: number[] = [];

  constructor(private readonly settings: AdmissionSettings) {}

  get length(): number {
    return this.waiting.length - this.head;
  }

  /** Whether the queue stands and is long enough to shed: then it starts the newest first and refuses the stale. */
  get isStanding(): boolean {
    return this.standing && this.length + this.settings.inFlight() > this.settings.fewestToShed;
  }

  enqueue(item: T, readAt: number): void {
    this.waiting.push({ item, readAt });
  }

  /** Counts a request started on arrival, without waiting: a turn with such requests has no standing queue. */
  startedAtOnce(now: number): void {
    this.observe(now, 0);
  }

  /** Those that waited past the timeout of the moment, oldest first: each is to be refused. */
  expire(now: number): Waiting<T>[] {
    this.roll(now);
    const expired: Waiting<T>[] = [];
    while (this.oldestWait(now) > this.settings.timeoutMs) expired.push(this.takeOldest());
    if (this.length === 0) this.clear();
    return expired;
  }

  /**
   * While the queue stands, no fresh request waits, and first in, first out could not clear the
   * queue within the target at the rate of the last intervals (a queue longer than the instance answers
   * in time), the oldest of those that waited past the target: it is to be refused.
   */
  nextToRefuse(now: number): Waiting<T> | null {
    if (!this.isStanding || this.oldestWait(now) <= this.settings.targetMs || this.startsStaleFirst(now)) return null;
    const stale = this.takeOldest();
    if (this.length === 0) this.clear();
    return stale;
  }

  /** The request to start now, by the discipline of the moment, with how long it waited; null when none is to start. */
  next(now: number): (Waiting<T> & { waitedMs: number }) | null {
    this.roll(now);
    if (this.length === 0) return null;
    let taken: Waiting<T>;
    if (!this.isStanding) taken = this.takeOldest();
    // A queue that stood through a pause but clears within the target: those owed an answer first.
    else if (this.oldestWait(now) > this.settings.targetMs && this.startsStaleFirst(now)) taken = this.takeOldest();
    else if (now - this.waiting[this.waiting.length - 1].readAt <= this.settings.targetMs) taken = this.waiting.pop()!;
    else return null;
    const waitedMs = now - taken.readAt;
    this.observe(now, waitedMs);
    if (this.length === 0) this.clear();
    return { ...taken, waitedMs };
  }

  /** Takes out those `leave` says have gone (their client closed the connection while they waited). */
  drop(leave: (item: T) => boolean): void {
    const kept = this.waiting.slice(this.head).filter((waiting) => !leave(waiting.item));
    this.waiting = kept;
    this.head = 0;
    if (kept.length === 0) this.clear();
  }

  /**
   * Whether first in, first out would start every request waiting within the target (Little's law), at
   * the most the instance started in one of the last intervals: an interval cut short by a pause of
   * the process shows less than the instance can do.
   */
  private clearsWithinTarget(): boolean {
    return (
      this.length <= (Math.max(0, ...this.startedInRecentIntervals) * this.settings.targetMs) / this.settings.intervalMs
    );
  }

  /** While it stands: the stale are started first when the queue clears in time and the oldest is not past starting. */
  private startsStaleFirst(now: number): boolean {
    return this.oldestWait(now) <= this.settings.staleStartMs && this.clearsWithinTarget();
  }

  private oldestWait(now: number): number {
    return this.length > 0 ? now - this.waiting[this.head].readAt : 0;
  }

  private takeOldest(): Waiting<T> {
    const oldest = this.waiting[this.head];
    this.head += 1;
    if (this.head > 1024 && this.head * 2 > this.waiting.length) {
      this.waiting = this.waiting.slice(this.head);
      this.head = 0;
    }
    return oldest;
  }

  private observe(now: number, waitedMs: number): void {
    this.roll(now);
    this.shortestWait = Math.min(this.shortestWait, waitedMs);
    this.startedInInterval += 1;
  }

  /** An empty queue stands no more, and the next interval starts with the next request. */
  private clear(): void {
    this.waiting = [];
    this.head = 0;
    this.standing = false;
  }

  /** Closes every interval that ended by `now`, deciding whether the queue stands. */
  private roll(now: number): void {
    const { intervalMs, targetMs } = this.settings;
    if (this.intervalEndsAt === null) {
      this.intervalEndsAt = now + intervalMs;
      return;
    }
    if (now < this.intervalEndsAt) return;
    if (this.startedInInterval > 0) {
      this.startedInRecentIntervals = [
        ...this.startedInRecentIntervals.slice(1 - RECENT_INTERVALS),
        this.startedInInterval,
      ];
      this.standing = this.standing
        ? !this.clearsWithinTarget() || this.oldestWait(now) > targetMs
        : this.shortestWait > targetMs;
    }
    this.shortestWait = Infinity;
    this.startedInInterval = 0;
    // A pause longer than an interval starts the next one now, rather than closing empty intervals one by one.
    this.intervalEndsAt = now - this.intervalEndsAt >= intervalMs ? now + intervalMs : this.intervalEndsAt + intervalMs;
  }
}
