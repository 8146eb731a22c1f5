import { createHash, randomBytes } from 'node:crypto';
import { compiledOnce } from '../../db/compiled-query.js';
import type { Db } from '../../db/index.js';

/** Writing the last use on every request would turn each read into a write; once a minute is enough. */
const TOUCH_INTERVAL_MS = 60_000;

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Opens a session and returns its token; only the token's hash is stored. */
export async function createSession(db: Db, userId: number): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date().toISOString();
  await db.insertInto('sessions').values({ token_hash: hashToken(token), user_id: userId, created_at: now, last_used_at: now }).execute();
  return token;
}

export interface Session {
  userId: number;
  /** The user's `state_version`: what of their own they see was last changed at this version. */
  stateVersion: number;
}

/** How often the last uses of sessions are written, in one statement for all of them. */
const TOUCH_WRITE_INTERVAL_MS = 5_000;

export interface Sessions {
  /** The session of a token, or null when the token is unknown or has been idle too long. */
  find(token: string, idleSeconds: number): Promise<Session | null>;
  /** Writes the last uses noted since the last write. */
  writeTouches(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Sessions as every call finds them: the lookup's query is compiled once, and the last use of a
 * session is written once a minute at most, for all sessions at once every few seconds rather
 * than as a write of its own in the call that used it. A use noted but not yet written counts
 * for the idle limit here; another instance sees it a few seconds later, nothing a 30-day limit notices.
 */
export function sessionsOf(db: Db): Sessions {
  const sessionByTokenHash = compiledOnce(db, ['token-hash'] as [string], (db, tokenHash) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.user_id', 'sessions.last_used_at', 'users.state_version'])
      .where('sessions.token_hash', '=', tokenHash),
  );
  /** Token hashes used since the last write, with when. */
  const touched = new Map<string, number>();

  const writeTouches = async () => {
    if (touched.size === 0) return;
    const hashes = [...touched.keys()];
    touched.clear();
    const now = new Date().toISOString();
    for (let start = 0; start < hashes.length; start += 500) {
      await db.updateTable('sessions').set({ last_used_at: now }).where('token_hash', 'in', hashes.slice(start, start + 500)).execute();
    }
  };
  const timer = setInterval(() => void writeTouches().catch(() => {}), TOUCH_WRITE_INTERVAL_MS);
  timer.unref();

  return {
    async find(token, idleSeconds) {
      const tokenHash = hashToken(token);
      const [session] = await sessionByTokenHash(db, tokenHash);
      if (!session) return null;
      const lastUsed = Math.max(Date.parse(session.last_used_at), touched.get(tokenHash) ?? 0);
      const idleMs = Date.now() - lastUsed;
      if (idleMs > idleSeconds * 1000) {
        touched.delete(tokenHash);
        await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
        return null;
      }
      if (idleMs > TOUCH_INTERVAL_MS) touched.set(tokenHash, Date.now());
      return { userId: session.user_id, stateVersion: session.state_version };
    },
    writeTouches,
    async close() {
      clearInterval(timer);
      await writeTouches();
    },
  };
}

export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
}

/** After a password change every other device has to sign in again. */
export async function revokeOtherSessions(db: Db, userId: number, keepToken: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('token_hash', '!=', hashToken(keepToken)).execute();
}
