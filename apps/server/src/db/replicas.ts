import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/** The app's handle (`Db` of index.ts, which opens the replicas and so is not imported here). */
type Db = Kysely<Database>;

/**
 * A place in PostgreSQL's write-ahead log, in bytes from its start (`pg_lsn - '0/0'`): every commit has one, and a
 * replica replays them in order.
 */
export type WalPosition = number;

/** How often each instance asks the primary where its log is and each replica how far it has replayed it. */
export const REPLICA_POLL_MS = 200;
/** A replica that has not answered its poll within this is left out until it answers again. */
const POLL_TIMEOUT_MS = 1_000;
/** Beyond the lag bound, the time a write may take to commit after the moment it is timed from (a token's issue). */
const SETTLING_MARGIN_MS = 1_000;

/** A replica as the last poll found it, for the metrics. */
export interface ReplicaState {
  /** host:port, never the password. */
  name: string;
  /** Takes reads now: it answered its last poll and lags no more than the bound. */
  inUse: boolean;
  /** How long ago the primary was where this replica has yet to reach; null until it answered. */
  lagMs: number | null;
}

/**
 * Where a call's reads that may lag go: a replica, or the primary. A write committed `settledMs`
 * ago or earlier is in what `db` reads; on the primary, every committed write is (0).
 */
export interface LaggingReads {
  db: Db;
  settledMs: number;
}

/** A replica picked for a read, by its name for the metrics. */
export interface PickedReplica {
  name: string;
  db: Db;
}

/** A replica's handle as opened, and how it tells that its connections broke. */
export interface ReplicaDb extends PickedReplica {
  onConnectionLost(listener: () => void): void;
}

export interface Replicas {
  /**
   * A write committed this long ago is on every replica in use: a replica is left out once it may
   * lag more than the bound, counting the time since its last poll.
   */
  readonly settledMs: number;
  /**
   * A replica in use that has replayed the log up to `floor` (a person's last write), picked at
   * random among those; null when none has, and the read goes to the primary.
   */
  inStepWith(floor: WalPosition): PickedReplica | null;
  /**
   * A replica that has replayed all the primary had committed when called, waited for over the
   * next two polls; null when none had by then. What it reads is then as current as the primary
   * was at the call: a copy kept in memory may be filled from it.
   */
  upToNow(): Promise<PickedReplica | null>;
  /** The primary's log position now: every transaction committed before the call is at or below it. */
  primaryPosition(): Promise<WalPosition>;
  states(): ReplicaState[];
  close(): Promise<void>;
}

interface Replica {
  name: string;
  db: Db;
  /** The last position it replayed, as its last poll said; null when it did not answer. */
  replayed: WalPosition | null;
  /** Its lag when last polled; null when it did not answer. */
  lagMs: number | null;
  /** When it was last polled: since then it may have fallen behind by as long. */
  polledAt: number;
  /** Its connections broke since its last poll. */
  lost: boolean;
}

/**
 * Where the primary's log was when: the lag of a replica is how long ago the primary passed the point it has reached.
 */
interface PrimarySample {
  at: number;
  position: WalPosition;
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function primaryPositionOf(db: Db): Promise<WalPosition> {
  const { rows } = await sql<{
    position: WalPosition;
  }>`select pg_current_wal_lsn() - '0/0'::pg_lsn as position`.execute(db);
  return rows[0].position;
}

/**
 * Null from a server that is not replaying a log: a primary, or a replica promoted since, is no replica to lag behind.
 */
async function replayedPositionOf(db: Db): Promise<WalPosition | null> {
  const { rows } = await sql<{
    replayed: WalPosition | null;
  }>`select pg_last_wal_replay_lsn() - '0/0'::pg_lsn as replayed`.execute(db);
  return rows[0].replayed;
}

/**
 * The primary's log positions sampled over the last `maxLagMs` and a little more: how long ago
 * the primary passed a position is how far behind a replica that has replayed up to it lags.
 */
class PrimaryLog {
  private samples: PrimarySample[] = [];
  /**
   * When the newest sample dropped from `samples` was taken; null before any was dropped, when nothing is known of the
   * primary before the first.
   */
  private droppedAt: number | null = null;

  constructor(private readonly maxLagMs: number) {}

  /**
   * Notes the primary at `position` now. Samples older than the bound only tell that a lag is past
   * it, which the newest dropped tells too.
   */
  record(position: WalPosition, now: number): void {
    this.samples.push({ at: now, position });
    const kept = this.samples.findIndex((sample) => sample.at >= now - this.maxLagMs - 2 * REPLICA_POLL_MS);
    if (kept > 0) {
      this.droppedAt = this.samples[kept - 1].at;
      this.samples = this.samples.slice(kept);
    }
  }

  /** How long ago the primary was last seen at or below `replayed`: 0 if it has not passed it since. */
  lagOf(replayed: WalPosition, now: number): number {
    const firstAhead = this.samples.findIndex((sample) => sample.position > replayed);
    if (firstAhead === -1) return 0;
    const lastReached = firstAhead > 0 ? this.samples[firstAhead - 1].at : this.droppedAt;
    return lastReached === null ? Infinity : now - lastReached;
  }
}

/** One poll: where the primary's log is, then how far each replica has replayed it and so how far it lags. */
async function pollOnce(primary: Db, log: PrimaryLog, replicas: readonly Replica[]): Promise<void> {
  const position = await withTimeout(primaryPositionOf(primary), POLL_TIMEOUT_MS).catch(() => null);
  // Without the primary's position no lag can be told: the replicas are kept as they were.
  if (position === null) return;
  const now = Date.now();
  log.record(position, now);
  await Promise.all(
    replicas.map(async (replica) => {
      const replayed = await withTimeout(replayedPositionOf(replica.db), POLL_TIMEOUT_MS).catch(() => null);
      Object.assign(replica, {
        replayed,
        lagMs: replayed === null ? null : log.lagOf(replayed, now),
        polledAt: now,
        lost: false,
      });
    }),
  );
}

/**
 * Runs `poll` now and again REPLICA_POLL_MS after each ends, timed from the end so that one waiting
 * for a replica that does not answer is not doubled, until stopped.
 */
function pollingEvery(poll: () => Promise<void>): { nextPoll(): Promise<void>; stop(): Promise<void> } {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let polling: Promise<void> = Promise.resolve();
  /** Told when the poll under way ends. */
  let polled: (() => void)[] = [];
  const pollAgain = () => {
    polling = poll().finally(() => {
      const waiting = polled;
      polled = [];
      waiting.forEach((resume) => resume());
      if (!stopped) timer = setTimeout(pollAgain, REPLICA_POLL_MS).unref();
    });
  };
  pollAgain();
  return {
    nextPoll: () => new Promise<void>((resume) => polled.push(resume)),
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await polling;
    },
  };
}

/**
 * The primary's log position, read for many callers at once: every write answered asks for it, and
 * callers share one query begun after they called, one at a time, so that a thousand writes a
 * second cost a few queries, not a thousand.
 */
function sharedPositionReads(primary: Db): () => Promise<WalPosition> {
  let positionRead: Promise<unknown> = Promise.resolve();
  let positionWanted: Promise<WalPosition> | null = null;
  return () =>
    (positionWanted ??= positionRead.then(() => {
      positionWanted = null;
      const position = primaryPositionOf(primary);
      positionRead = position.catch(() => undefined);
      return position;
    }));
}

/**
 * Streaming replicas of the primary, read while they keep up. Each instance polls the primary's
 * log position and every replica's replayed position every REPLICA_POLL_MS, never per request.
 * Lag is measured by position rather than by `pg_last_xact_replay_timestamp()`, whose age after an
 * idle hour would leave out a replica one commit behind: it is how long ago the primary was last
 * seen at or below the position the replica has replayed, while the primary is past it. A replica
 * that lags past `maxLagMs`, stops answering, or whose connections break is left out until a poll
 * finds it well again.
 */
export function pollReplicas(
  primary: Db,
  replicaDbs: readonly ReplicaDb[],
  { maxLagMs }: { maxLagMs: number },
): Replicas {
  const replicas: Replica[] = replicaDbs.map(({ name, db, onConnectionLost }) => {
    const replica: Replica = { name, db, replayed: null, lagMs: null, polledAt: 0, lost: false };
    onConnectionLost(() => (replica.lost = true));
    return replica;
  });
  const log = new PrimaryLog(maxLagMs);
  const polling = pollingEvery(() => pollOnce(primary, log, replicas));
  const primaryPosition = sharedPositionReads(primary);
  let closed = false;

  const inUse = (replica: Replica, now: number) =>
    !replica.lost && replica.lagMs !== null && replica.lagMs + (now - replica.polledAt) <= maxLagMs;

  const inStepWith = (floor: WalPosition): PickedReplica | null => {
    const now = Date.now();
    const inStep = replicas.filter(
      (replica) => inUse(replica, now) && replica.replayed !== null && replica.replayed >= floor,
    );
    if (inStep.length === 0) return null;
    const { name, db } = inStep[Math.floor(Math.random() * inStep.length)];
    return { name, db };
  };

  return {
    settledMs: maxLagMs + SETTLING_MARGIN_MS,
    inStepWith,
    async upToNow() {
      if (closed || inStepWith(0) === null) return null;
      const position = await primaryPosition();
      // A replica found past the position is past it; one not found may have been asked before it, so the next two
      // polls are waited for.
      for (let polls = 0; ; polls += 1) {
        const replica = inStepWith(position);
        if (replica || closed || polls === 2) return replica;
        await polling.nextPoll();
      }
    },
    primaryPosition,
    states: () =>
      replicas.map((replica) => ({ name: replica.name, inUse: inUse(replica, Date.now()), lagMs: replica.lagMs })),
    async close() {
      closed = true;
      await polling.stop();
      await Promise.all(replicas.map((replica) => replica.db.destroy()));
    },
  };
}
