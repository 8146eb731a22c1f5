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

/**
 * Finds the session of a token: its user, or null when the token is unknown or has been idle
 * too long. Asked on every call, so its query is compiled once.
 */
export function sessionFor(db: Db): (token: string, idleSeconds: number) => Promise<Session | null> {
  const sessionByTokenHash = compiledOnce(db, ['token-hash'] as [string], (db, tokenHash) =>
    db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.user_id', 'sessions.last_used_at', 'users.state_version'])
      .where('sessions.token_hash', '=', tokenHash),
  );
  return async (token, idleSeconds) => {
    const tokenHash = hashToken(token);
    const [session] = await sessionByTokenHash(db, tokenHash);
    if (!session) return null;
    const idleMs = Date.now() - Date.parse(session.last_used_at);
    if (idleMs > idleSeconds * 1000) {
      await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
      return null;
    }
    if (idleMs > TOUCH_INTERVAL_MS) {
      await db.updateTable('sessions').set({ last_used_at: new Date().toISOString() }).where('token_hash', '=', tokenHash).execute();
    }
    return { userId: session.user_id, stateVersion: session.state_version };
  };
}

export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
}

/** After a password change every other device has to sign in again. */
export async function revokeOtherSessions(db: Db, userId: number, keepToken: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('token_hash', '!=', hashToken(keepToken)).execute();
}
