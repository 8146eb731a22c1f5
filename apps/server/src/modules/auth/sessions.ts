import { createHash, randomBytes } from 'node:crypto';
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

/** The user a token belongs to, or null when it is unknown or has been idle too long. */
export async function userIdForToken(db: Db, token: string, idleSeconds: number): Promise<number | null> {
  const tokenHash = hashToken(token);
  const session = await db.selectFrom('sessions').select(['user_id', 'last_used_at']).where('token_hash', '=', tokenHash).executeTakeFirst();
  if (!session) return null;
  const idleMs = Date.now() - Date.parse(session.last_used_at);
  if (idleMs > idleSeconds * 1000) {
    await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
    return null;
  }
  if (idleMs > TOUCH_INTERVAL_MS) {
    await db.updateTable('sessions').set({ last_used_at: new Date().toISOString() }).where('token_hash', '=', tokenHash).execute();
  }
  return session.user_id;
}

export async function revokeSession(db: Db, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('token_hash', '=', hashToken(token)).execute();
}

/** After a password change every other device has to sign in again. */
export async function revokeOtherSessions(db: Db, userId: number, keepToken: string): Promise<void> {
  await db.deleteFrom('sessions').where('user_id', '=', userId).where('token_hash', '!=', hashToken(keepToken)).execute();
}
