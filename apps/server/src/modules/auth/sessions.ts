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
  type SessionRow = NonNullable<Awaited<ReturnType<typeof sessionsByTokenHash.loadOne>>>;
  /** Whose each token was when last read, kept or not: whether their state is kept decides what the next read reads. */
  const personOf = new ClockCache<string, number>(maxKept);
  /** Token hashes used since the last write, with when. */
  const touched = new Map<string, number>();
  /** By token: hashing one costs more than looking it up. */
  const kept = new ClockCache<string, KeptSession>(maxKept);
  /** The latest state version known here of people with a session kept. */
  const versions = new ClockCache<number, number>(maxKept);
  /**
   * When each person's sessions or state last changed to what no version kept says: a session
   * whose read began earlier may predate it. Forgotten once older than any session kept.
   */
  const changedAt = new Map<number, number>();

  const writeTouches = async () => {
    if (touched.size === 0) return;
    const hashes = [...touched.keys()];
    touched.clear();
    const now = new Date().toISOString();
    for (let start = 0; start < hashes.length; start += TOUCHES_PER_WRITE) {
      // Between writes, the requests waiting run: on SQLite a write holds the thread.
      if (start > 0) await setImmediate();
      await db
        .updateTable('sessions')
        .set({ last_used_at: now })
        .where('token_hash', 'in', hashes.slice(start, start + TOUCHES_PER_WRITE))
        .execute();
    }
  };
  const touchTimer = setInterval(() => void writeTouches().catch(() => {}), TOUCH_WRITE_INTERVAL_MS);
  touchTimer.unref();
  const forgetTimer = setInterval(() => {
    const before = performance.now() - KEPT_SESSION_MS;
    for (const [userId, at] of changedAt) if (at < before) changedAt.delete(userId);
  }, KEPT_SESSION_MS);
  forgetTimer.unref();

  /** The session as kept, when nothing since could have changed it. */
  const trusted = (token: string): FoundSession | null => {
    const session = kept.get(token);
    if (
      !session ||
      performance.now() - session.readAt > KEPT_SESSION_MS ||
      session.readAt <= (changedAt.get(session.userId) ?? -Infinity)
    )
      return null;
    const version = versions.get(session.userId);
    return version === undefined ? null : { session, version };
  };

  const read = async (token: string): Promise<FoundSession | null> => {
    const tokenHash = hashToken(token);
    const readAt = performance.now();
    const person = personOf.get(token);
    const withState = person === undefined || !viewers.holds(person);
    let row: SessionRow | undefined;
    if (withState) {
      const found = await sessionsAndStatesByTokenHash.loadOne(db, tokenHash);
      if (found) {
        const { token_hash, user_id, created_at, last_used_at, state_version, ...state } = found;
        viewers.prime({ id: user_id, ...state }, state_version);
      }
      row = found;
    } else row = await sessionsByTokenHash.loadOne(db, tokenHash);
    if (!row) {
      kept.delete(token);
      personOf.delete(token);
      return null;
    }
    personOf.set(token, row.user_id);
    const session = {
      userId: row.user_id,
      tokenHash,
      issuedAt: Date.parse(row.created_at),
      lastUsed: Date.parse(row.last_used_at),
      readAt,
    };
    // Versions only grow: one moved here since this read began is the later.
    const version = Math.max(row.state_version, versions.get(row.user_id) ?? 0);
    if (keep) {
      kept.set(token, session);
      versions.set(row.user_id, version);
    }
    return { session, version };
  };

  const changed = (userId: number) => void changedAt.set(userId, performance.now());

  return {
    async find(token, idleSeconds) {
      const found = (keep ? trusted(token) : null) ?? (await read(token));
      if (!found) return null;
      const { session, version } = found;
      const lastUsed = Math.max(session.lastUsed, touched.get(session.tokenHash) ?? 0);
      const idleMs = Date.now() - lastUsed;
      if (idleMs > idleSeconds * 1000) {
        touched.delete(session.tokenHash);
        kept.delete(token);
        await db.deleteFrom('sessions').where('token_hash', '=', session.tokenHash).execute();
        return null;
      }
      if (idleMs > TOUCH_INTERVAL_MS) {
        session.lastUsed = Date.now();
        touched.set(session.tokenHash, session.lastUsed);
      }
      return { userId: session.userId, stateVersion: version, issuedAt: session.issuedAt };
    },
    stateMoved(userId, version) {
      if (keep) versions.set(userId, Math.max(versions.get(userId) ?? 0, version));
    },
    changed,
    ended(userId, tokenHash) {
      touched.delete(tokenHash);
      // A read of the session begun before the delete may still be under way.
      changed(userId);
    },
    deleted(userId) {
      const theirs = [...kept.keyed()].filter(([, session]) => session.userId === userId);
      for (const [token, session] of theirs) {
        kept.delete(token);
        touched.delete(session.tokenHash);
      }
      versions.delete(userId);
      // A read of one of their sessions begun before the delete may still be under way.
      changed(userId);
    },
    forgetAll() {
      kept.clear();
      versions.clear();
      changedAt.clear();
    },
    writeTouches,
    stats: () => kept.stats(),
    async close() {
      clearInterval(touchTimer);
      clearInterval(forgetTimer);
      await writeTouches();
    },
  };
}
