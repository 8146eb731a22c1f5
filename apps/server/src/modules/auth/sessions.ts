import { createHash, randomBytes } from 'node:crypto';
import { setImmediate } from 'node:timers/promises';
import type { Change } from '../../changes/change.js';
import type { Db } from '../../db/index.js';
import { Lookup, type KeyIsOneOf } from '../../db/lookups.js';
import { ClockCache, type CacheStats } from '../../lib/clock-cache.js';
import { stateSelections, type ViewerStates } from '../../views/viewer-states.js';

/** Writing the last use on every request would turn each read into a write; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Opens a session and returns its token; only the token's hash is stored. */
export async function createSession(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date().toISOString();
  await db
    .insertInto('sessions')
    .values({ token_hash: hashToken(token), user_id: userId, created_at: now, last_used_at: now })
    .execute();
  return token;
}

/** Signs a token out: the change it made, or null for a token already gone. */
export async function endSession(db: Db, token: string): Promise<Change | null> {
  const tokenHash = hashToken(token);
  const session = await db
    .deleteFrom('sessions')
    .where('token_hash', '=', tokenHash)
    .returning('user_id')
    .executeTakeFirst();
  return session ? { kind: 'sessionEnded', userId: session.user_id, tokenHash } : null;
}

/** Signs out every session of the person but `keepToken`, in the transaction that changes their password. */
export async function endOtherSessions(trx: Db, userId: number, keepToken: string): Promise<Change> {
  const keptTokenHash = hashToken(keepToken);
  await trx.deleteFrom('sessions').where('user_id', '=', userId).where('token_hash', '!=', keptTokenHash).execute();
  return { kind: 'passwordChanged', userId, keptTokenHash };
}

export interface Session {
  userId: number;
  /** The user's `state_version`: what of their own they see was last changed at this version. */
  stateVersion: number;
  /** When the token was issued (ms since the epoch). */
  issuedAt: number;
}

/** How often the last uses of sessions are written. */
const TOUCH_WRITE_INTERVAL_MS = 5_000;
/** Last uses written per statement: 100 take about 0.7 ms on SQLite. */
const TOUCHES_PER_WRITE = 100;
/** How long a session found is kept before it is read again, should anything but this server change it. */
const KEPT_SESSION_MS = 30_000;

export interface Sessions {
  /** The session of a token, or null when the token is unknown or has been idle too long. */
  find(token: string, idleSeconds: number): Promise<Session | null>;
  /** A change to the person's own state committed here moved it to `version`. */
  stateMoved(userId: number, version: number): void;
  /** The person's sessions or state changed to what no version kept here says: read them again. */
  changed(userId: number): void;
  /** A session was signed out. */
  ended(userId: number, tokenHash: string): void;
  /** The person's account was deleted, with every session of theirs. */
  deleted(userId: number): void;
  /** Forgets every session kept, to read each again (after the database was changed from outside). */
  forgetAll(): void;
  /** Writes the last uses noted since the last write. */
  writeTouches(): Promise<void>;
  /** The sessions kept, for the metrics. */
  stats(): CacheStats;
  close(): Promise<void>;
}

interface KeptSession {
  userId: number;
  tokenHash: string;
  /** When its token was issued (ms since the epoch). */
  issuedAt: number;
  /** The session's last use: as stored when it was read, or as noted since. */
  lastUsed: number;
  /** When its read began (performance.now()). */
  readAt: number;
}

/** A session with its person's state version as known here. */
interface FoundSession {
  session: KeptSession;
  version: number;
}

/**
 * Reads sessions by token hash, those asked for in one turn together (db/lookups.ts). With `withState`, the person's
 * state comes in the same statement and is handed to `viewers` to keep.
 */
function sessionReader(viewers: ViewerStates) {
  const sessionRows = (db: Db, tokenHashIsOneOf: KeyIsOneOf) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.token_hash',
        'sessions.user_id',
        'sessions.created_at',
        'sessions.last_used_at',
        'users.state_version',
      ])
      .where(tokenHashIsOneOf('sessions.token_hash'));
  const sessionsByTokenHash = new Lookup(sessionRows, (row) => row.token_hash);
  // A person whose session is not known here is seldom kept either: their state comes in the same statement, where
  // reading it next would cost a round trip of its own.
  const sessionsAndStatesByTokenHash = new Lookup(
    (db, tokenHashIsOneOf) => sessionRows(db, tokenHashIsOneOf).select(stateSelections(viewers.dialect)),
    (row) => row.token_hash,
  );
  return async (db: Db, tokenHash: string, withState: boolean) => {
    if (!withState) return sessionsByTokenHash.loadOne(db, tokenHash);
    const found = await sessionsAndStatesByTokenHash.loadOne(db, tokenHash);
    if (found) {
      const { token_hash, user_id, created_at, last_used_at, state_version, ...state } = found;
      viewers.prime({ id: user_id, ...state }, state_version);
    }
    return found;
  };
}

/**
 * The last uses of sessions noted since the last write, written for all sessions at once every few seconds rather
 * than as a write of its own in the call that used each.
 */
class LastUses {
  /** Token hashes used since the last write, with when. */
  private readonly noted = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly db: Db) {
    this.timer = setInterval(() => void this.write().catch(() => {}), TOUCH_WRITE_INTERVAL_MS);
    this.timer.unref();
  }

  /** When the session was last used as noted here, or 0. */
  of(tokenHash: string): number {
    return this.noted.get(tokenHash) ?? 0;
  }

  note(tokenHash: string, at: number): void {
    this.noted.set(tokenHash, at);
  }

  forget(tokenHash: string): void {
    this.noted.delete(tokenHash);
  }

  async write(): Promise<void> {
    if (this.noted.size === 0) return;
    const hashes = [...this.noted.keys()];
    this.noted.clear();
    const now = new Date().toISOString();
    for (let start = 0; start < hashes.length; start += TOUCHES_PER_WRITE) {
      // Between writes, the requests waiting run: on SQLite a write holds the thread.
      if (start > 0) await setImmediate();
      await this.db
        .updateTable('sessions')
        .set({ last_used_at: now })
        .where('token_hash', 'in', hashes.slice(start, start + TOUCHES_PER_WRITE))
        .execute();
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.write();
  }
}

/**
 * Sessions as every call finds them. With `keep` (an instance that runs alone, so that every
 * change goes through it), a session read from the database is kept for a while with its
 * person's state version, so most calls read nothing: the changes made here update what is kept.
 * Without, every call reads its session. The sessions asked for in one turn are read together
 * (db/lookups.ts), and the last use of a session is written once a minute at most, for all sessions at once every few seconds rather
 * than as a write of its own in the call that used it. A use noted but not yet written counts for
 * the idle limit here; another instance sees it a few seconds later, nothing a 30-day limit notices.
 * The read of a person whose state `viewers` does not keep brings that state too, for `viewers` to keep.
 */
export function sessionsOf(
  db: Db,
  { keep, maxKept, viewers }: { keep: boolean; maxKept: number; viewers: ViewerStates },
): Sessions {
  return new SessionStore(db, keep, maxKept, sessionReader(viewers), viewers);
}

class SessionStore implements Sessions {
  private readonly lastUses: LastUses;
  /** Whose each token was when last read, kept or not: whether their state is kept decides what the next read reads. */
  private readonly personOf: ClockCache<string, number>;
  /** By token: hashing one costs more than looking it up. */
  private readonly kept: ClockCache<string, KeptSession>;
  /** The latest state version known here of people with a session kept. */
  private readonly versions: ClockCache<number, number>;
  /**
   * When each person's sessions or state last changed to what no version kept says: a session
   * whose read began earlier may predate it. Forgotten once older than any session kept.
   */
  private readonly changedAt = new Map<number, number>();
  private readonly forgetTimer: NodeJS.Timeout;

  constructor(
    private readonly db: Db,
    private readonly keep: boolean,
    maxKept: number,
    private readonly readRow: ReturnType<typeof sessionReader>,
    private readonly viewers: ViewerStates,
  ) {
    this.lastUses = new LastUses(db);
    this.personOf = new ClockCache(maxKept);
    this.kept = new ClockCache(maxKept);
    this.versions = new ClockCache(maxKept);
    this.forgetTimer = setInterval(() => {
      const before = performance.now() - KEPT_SESSION_MS;
      for (const [userId, at] of this.changedAt) if (at < before) this.changedAt.delete(userId);
    }, KEPT_SESSION_MS);
    this.forgetTimer.unref();
  }

  async find(token: string, idleSeconds: number): Promise<Session | null> {
    const found = (this.keep ? this.trusted(token) : null) ?? (await this.read(token));
    if (!found) return null;
    const { session, version } = found;
    const lastUsed = Math.max(session.lastUsed, this.lastUses.of(session.tokenHash));
    const idleMs = Date.now() - lastUsed;
    if (idleMs > idleSeconds * 1000) {
      this.lastUses.forget(session.tokenHash);
      this.kept.delete(token);
      await this.db.deleteFrom('sessions').where('token_hash', '=', session.tokenHash).execute();
      return null;
    }
    if (idleMs > TOUCH_INTERVAL_MS) {
      session.lastUsed = Date.now();
      this.lastUses.note(session.tokenHash, session.lastUsed);
    }
    return { userId: session.userId, stateVersion: version, issuedAt: session.issuedAt };
  }

  /** The session as kept, when nothing since could have changed it. */
  private trusted(token: string): FoundSession | null {
    const session = this.kept.get(token);
    if (
      !session ||
      performance.now() - session.readAt > KEPT_SESSION_MS ||
      session.readAt <= (this.changedAt.get(session.userId) ?? -Infinity)
    )
      return null;
    const version = this.versions.get(session.userId);
    return version === undefined ? null : { session, version };
  }

  private async read(token: string): Promise<FoundSession | null> {
    const tokenHash = hashToken(token);
    const readAt = performance.now();
    const person = this.personOf.get(token);
    const row = await this.readRow(this.db, tokenHash, person === undefined || !this.viewers.holds(person));
    if (!row) {
      this.kept.delete(token);
      this.personOf.delete(token);
      return null;
    }
    this.personOf.set(token, row.user_id);
    const session = {
      userId: row.user_id,
      tokenHash,
      issuedAt: Date.parse(row.created_at),
      lastUsed: Date.parse(row.last_used_at),
      readAt,
    };
    // Versions only grow: one moved here since this read began is the later.
    const version = Math.max(row.state_version, this.versions.get(row.user_id) ?? 0);
    if (this.keep) {
      this.kept.set(token, session);
      this.versions.set(row.user_id, version);
    }
    return { session, version };
  }

  stateMoved(userId: number, version: number): void {
    if (this.keep) this.versions.set(userId, Math.max(this.versions.get(userId) ?? 0, version));
  }

  changed(userId: number): void {
    this.changedAt.set(userId, performance.now());
  }

  ended(userId: number, tokenHash: string): void {
    this.lastUses.forget(tokenHash);
    // A read of the session begun before the delete may still be under way.
    this.changed(userId);
  }

  deleted(userId: number): void {
    const theirs = [...this.kept.keyed()].filter(([, session]) => session.userId === userId);
    for (const [token, session] of theirs) {
      this.kept.delete(token);
      this.lastUses.forget(session.tokenHash);
    }
    this.versions.delete(userId);
    // A read of one of their sessions begun before the delete may still be under way.
    this.changed(userId);
  }

  forgetAll(): void {
    this.kept.clear();
    this.versions.clear();
    this.changedAt.clear();
  }

  writeTouches(): Promise<void> {
    return this.lastUses.write();
  }

  stats(): CacheStats {
    return this.kept.stats();
  }

  async close(): Promise<void> {
    clearInterval(this.forgetTimer);
    await this.lastUses.close();
  }
}
