import { BadRequestError } from '../errors.js';

/** The largest id: a larger one was never given out, and PostgreSQL would refuse to compare it. */
export const MAX_ID = 2_147_483_647;

/**
 * Keyset pagination: a page is ordered by a unique, descending integer key (a question, vote or
 * like id, or a search's rank and id) and the cursor names the last key seen, so pages never
 * repeat or skip rows when new ones arrive. Keys are ids unless a list says how large its keys go.
 */
export function decodeCursor(cursor: string | undefined, maxKey = MAX_ID): number | null {
  if (cursor === undefined || cursor === '') return null;
  const match = /^k(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match || Number(match[1]) > maxKey)
    throw new BadRequestError('errors.cursor', { cursor: 'errors.cursor.field' });
  return Number(match[1]);
}

function encodeCursor(key: number): string {
  return Buffer.from(`k${key}`, 'utf8').toString('base64url');
}

/** Rows were fetched with `limit + 1` so the extra one tells whether another page follows. */
export function pageOf<T extends { key: number }>(rows: T[], limit: number): { items: T[]; next: string | null } {
  const items = rows.slice(0, limit);
  const next = rows.length > limit ? encodeCursor(items[items.length - 1].key) : null;
  return { items, next };
}
