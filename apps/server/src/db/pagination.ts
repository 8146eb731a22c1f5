import { BadRequestError } from '../errors.js';

const MAX_KEY = 2_147_483_647;

/**
 * Keyset pagination: a page is ordered by a unique, descending integer key (a question, vote or
 * like id) and the cursor names the last key seen, so pages never repeat or skip rows when new
 * ones arrive.
 */
export function decodeCursor(cursor: string | undefined): number | null {
  if (cursor === undefined || cursor === '') return null;
  const match = /^k(\d{1,10})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  // Keys are integer ids: a larger one was never given out, and PostgreSQL would refuse to compare it.
  if (!match || Number(match[1]) > MAX_KEY) throw new BadRequestError('Invalid cursor', { cursor: 'Use the next value of the previous page' });
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
