import type { Db } from '../../db/index.js';
import { ClockCache } from '../../lib/clock-cache.js';

/** The largest index `i` with `ids[i] < before` in ascending `ids`, or -1. */
function lastBefore(ids: readonly number[], before: number): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle] < before) low = middle + 1;
    else high = middle;
  }
  return low - 1;
}

/**
 * The questions of several authors, newest first, after `before` (a page's cursor) and without
 * those `skip` refuses: a merge of their lists, each already in order.
 */
export function newestOf(lists: readonly (readonly number[])[], before: number | null, count: number, skip: (id: number) => boolean): number[] {
  const positions = lists.map((ids) => (before === null ? ids.length - 1 : lastBefore(ids, before)));
  const newest: number[] = [];
  while (newest.length < count) {
    let best = -1;
    for (let list = 0; list < lists.length; list += 1) {
      const position = positions[list];
      if (position >= 0 && (best === -1 || lists[list][position] > lists[best][positions[best]])) best = list;
    }
    if (best === -1) break;
    const id = lists[best][positions[best]];
    positions[best] -= 1;
    if (!skip(id)) newest.push(id);
  }
  return newest;
}

/** An author's question ids in ascending order, as read or last changed here. */
export interface AuthorList {
  readonly ids: readonly number[];
  /** Whether this is still the list kept, and kept current, for its author: a change makes a new list. */
  current: boolean;
}

function dropped(list: AuthorList): void {
  list.current = false;
}

/**
 * Each author's question ids in ascending order, kept in memory for the authors whose questions
 * this instance shows in feeds: a feed is then merged from its followees' lists without a query.
 * A question asked here replaces its author's list at once; one asked on another instance drops
 * the list (`staled`), read again on next use. The least recently used lists are dropped past
 * `maxIds` ids in all.
 */
export class AuthorQuestions {
  private readonly byAuthor: ClockCache<number, AuthorList>;
  /** Authors being read, and whether a change was heard meanwhile (the read may predate it). */
  private readonly reading = new Map<number, { staled: boolean }>();

  constructor(maxIds: number) {
    this.byAuthor = new ClockCache(maxIds, (list) => list.ids.length, dropped);
  }

  /** The question lists of these authors, read for those not kept. */
  async listsOf(db: Db, authorIds: readonly number[]): Promise<AuthorList[]> {
    const lists = new Map<number, AuthorList>();
    const missing: number[] = [];
    for (const authorId of authorIds) {
      const list = this.byAuthor.get(authorId);
      if (list) lists.set(authorId, list);
      else missing.push(authorId);
    }
    if (missing.length > 0) {
      const marks = missing.map((authorId) => {
        const mark = { staled: false };
        this.reading.set(authorId, mark);
        return [authorId, mark] as const;
      });
      const rows = await db.selectFrom('questions').select(['id', 'user_id']).where('user_id', 'in', missing).orderBy('id').execute();
      const read = new Map<number, number[]>(missing.map((authorId) => [authorId, []]));
      for (const row of rows) read.get(row.user_id)!.push(row.id);
      for (const [authorId, mark] of marks) {
        if (this.reading.get(authorId) === mark) this.reading.delete(authorId);
        const list = { ids: read.get(authorId)!, current: !mark.staled };
        lists.set(authorId, list);
        if (list.current) this.byAuthor.set(authorId, list);
      }
    }
    return authorIds.map((authorId) => lists.get(authorId)!);
  }

  /** A question asked through this instance. */
  asked(authorId: number, questionId: number): void {
    const reading = this.reading.get(authorId);
    if (reading) reading.staled = true;
    const kept = this.byAuthor.get(authorId);
    if (!kept) return;
    // Ids grow, but two questions asked at once may commit out of order.
    const position = lastBefore(kept.ids, questionId) + 1;
    this.byAuthor.set(authorId, { ids: [...kept.ids.slice(0, position), questionId, ...kept.ids.slice(position)], current: true });
  }

  /** The author asked a question through another instance. */
  staled(authorId: number): void {
    const reading = this.reading.get(authorId);
    if (reading) reading.staled = true;
    this.byAuthor.delete(authorId);
  }

  /** Changes made elsewhere may have gone unheard. */
  staledAll(): void {
    for (const mark of this.reading.values()) mark.staled = true;
    this.byAuthor.clear();
  }
}
