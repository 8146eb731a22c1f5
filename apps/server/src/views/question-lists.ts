import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db/index.js';
import type { Database } from '../db/schema.js';
import { Lookup } from '../db/lookups.js';
import { ClockCache, type CacheStats } from '../lib/clock-cache.js';

/** A list of questions people browse, newest first: an author's, a category's or a tag's. */
export type ListKey = { by: 'author'; id: number } | { by: 'category'; id: number } | { by: 'tag'; name: string };

/** A list's newest question ids in ascending order, as read or last changed here. */
export interface QuestionList {
  readonly ids: readonly number[];
  /** Whether `ids` holds every question of the list; else the older ones are read from the database. */
  readonly complete: boolean;
  /** Whether this is still the list kept, and kept current, for its key: a change makes a new list. */
  current: boolean;
}

/** A page's ids and the lists they were merged from (what a kept feed page depends on). */
export interface ListPage {
  ids: number[];
  lists: readonly QuestionList[];
}

function nameOf(key: ListKey): string {
  return key.by === 'tag' ? `tag:${key.name}` : `${key.by}:${key.id}`;
}

/** The questions of these lists, as a condition on `questions`. */
function inLists(keys: readonly ListKey[]) {
  return (eb: ExpressionBuilder<Database, 'questions'>): Expression<SqlBool> =>
    eb.or(
      keys.map((key) =>
        key.by === 'author'
          ? eb('questions.user_id', '=', key.id)
          : key.by === 'category'
            ? eb('questions.category_id', '=', key.id)
            : eb(
                'questions.id',
                'in',
                eb
                  .selectFrom('question_tags')
                  .select('question_tags.question_id')
                  .where('question_tags.tag', '=', key.name),
              ),
      ),
    );
}

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
 * The ids of several ascending lists, newest first, below `before` (a page's cursor) and not
 * below `floor`: a merge of lists each already in order.
 */
export function newestOf(
  lists: readonly (readonly number[])[],
  before: number | null,
  count: number,
  floor = 0,
): number[] {
  const positions = lists.map((ids) => (before === null ? ids.length - 1 : lastBefore(ids, before)));
  const newest: number[] = [];
  while (newest.length < count) {
    let best = -1;
    for (let list = 0; list < lists.length; list += 1) {
      const position = positions[list];
      if (position >= 0 && (best === -1 || lists[list][position] > lists[best][positions[best]])) best = list;
    }
    if (best === -1 || lists[best][positions[best]] < floor) break;
    newest.push(lists[best][positions[best]]);
    positions[best] -= 1;
  }
  return newest;
}

function dropped(list: QuestionList): void {
  list.current = false;
}

/**
 * The newest questions of each list people browse (an author's, a category's, a tag's), kept in
 * memory: a feed is merged from its followees' lists and a category's first pages come from its
 * list, without a query. Each list keeps its newest `window` ids; a page that reaches past them
 * reads the older ones from the database. A question asked, here or on another instance, enters
 * its lists at once (`asked`); a list read while one was asked is used once and not kept, since
 * the read may predate it. The least recently used lists are dropped past `maxIds` ids in all.
 */
export class QuestionLists {
  private readonly lists: ClockCache<string, QuestionList>;
  /** Lists being read, and whether a question was asked in one meanwhile. */
  private readonly reading = new Map<string, { staled: boolean }>();

  /** Authors' newest `window + 1` questions each, newest first: the authors of the lists missed in a turn at once. */
  private readonly authorsNewest: Lookup<number, { id: number; user_id: number }>;

  constructor(
    maxIds: number,
    private readonly window: number,
  ) {
    this.lists = new ClockCache(maxIds, (list) => list.ids.length + 1, dropped);
    this.authorsNewest = new Lookup(
      (db, authorIsOneOf) =>
        db
          .selectFrom((eb) =>
            eb
              .selectFrom('questions')
              .select([
                'questions.id',
                'questions.user_id',
                sql<number>`row_number() over (partition by questions.user_id order by questions.id desc)`.as('rank'),
              ])
              .where(authorIsOneOf('questions.user_id'))
              .as('ranked'),
          )
          .select(['ranked.id', 'ranked.user_id'])
          .where('ranked.rank', '<=', sql.lit(window + 1))
          .orderBy('ranked.id', 'desc'),
      (row) => row.user_id,
    );
  }

  /** What is kept, for the metrics. */
  stats(): CacheStats {
    return this.lists.stats();
  }

  /**
   * Up to `count` ids of the merged lists, newest first, below `before`: from the lists kept as
   * far as every one of them reaches, then from the database.
   */
  async page(db: Db, keys: readonly ListKey[], before: number | null, count: number): Promise<ListPage> {
    const lists = await this.listsOf(db, keys);
    // Below the oldest id an incomplete list keeps, the merge could miss that list's questions.
    const floor = Math.max(0, ...lists.map((list) => (list.complete || list.ids.length === 0 ? 0 : list.ids[0])));
    const ids = newestOf(
      lists.map((list) => list.ids),
      before,
      count,
      floor,
    );
    if (ids.length < count && floor > 0) {
      const below = Math.min(before ?? Infinity, ids.length > 0 ? ids[ids.length - 1] : Infinity, floor);
      const older = await db
        .selectFrom('questions')
        .select('questions.id')
        .where(inLists(keys))
        .where('questions.id', '<', below)
        .orderBy('questions.id', 'desc')
        .limit(count - ids.length)
        .execute();
      for (const row of older) ids.push(row.id);
    }
    return { ids, lists };
  }

  /** The lists of these keys, read for those not kept. */
  async listsOf(db: Db, keys: readonly ListKey[]): Promise<QuestionList[]> {
    const names = keys.map(nameOf);
    const found = new Map<string, QuestionList>();
    const missing: ListKey[] = [];
    keys.forEach((key, index) => {
      const list = this.lists.get(names[index]);
      if (list) found.set(names[index], list);
      else if (!found.has(names[index])) missing.push(key);
    });
    if (missing.length > 0) {
      const marks = missing.map((key) => {
        const mark = { staled: false };
        this.reading.set(nameOf(key), mark);
        return [nameOf(key), mark] as const;
      });
      const read = await this.read(db, missing);
      for (const [name, mark] of marks) {
        if (this.reading.get(name) === mark) this.reading.delete(name);
        const ids = read.get(name) ?? [];
        const complete = ids.length <= this.window;
        const list: QuestionList = {
          ids: (complete ? ids : ids.slice(0, -1)).reverse(),
          complete,
          current: !mark.staled,
        };
        found.set(name, list);
        if (list.current) this.lists.set(name, list);
      }
    }
    return names.map((name) => found.get(name)!);
  }

  /** A question asked, here or on another instance: it enters the lists it belongs to that are kept. */
  asked(questionId: number, keys: readonly ListKey[]): void {
    for (const key of keys) {
      const name = nameOf(key);
      const reading = this.reading.get(name);
      if (reading) reading.staled = true;
      const kept = this.lists.get(name);
      if (!kept) continue;
      // Ids grow, but two questions asked at once may commit, or be heard of, out of order.
      const position = lastBefore(kept.ids, questionId) + 1;
      if (kept.ids[position] === questionId) continue;
      const ids = [...kept.ids.slice(0, position), questionId, ...kept.ids.slice(position)];
      const full = ids.length > this.window;
      this.lists.set(name, { ids: full ? ids.slice(1) : ids, complete: kept.complete && !full, current: true });
    }
  }

  /**
   * The questions were deleted with their author's account: the author's list goes, and they
   * leave every other list kept. Lists being read are read again, as the read may predate it.
   */
  deleted(authorId: number, questionIds: readonly number[]): void {
    for (const mark of this.reading.values()) mark.staled = true;
    this.lists.delete(nameOf({ by: 'author', id: authorId }));
    const gone = new Set(questionIds);
    const touched = [...this.lists.keyed()].filter(([, list]) => list.ids.some((id) => gone.has(id)));
    for (const [name, list] of touched) {
      const ids = list.ids.filter((id) => !gone.has(id));
      // A list that kept only the newest ids and lost them all no longer knows where the older begin.
      if (ids.length === 0 && !list.complete) this.lists.delete(name);
      else this.lists.set(name, { ids, complete: list.complete, current: true });
    }
  }

  /** Changes made elsewhere may have gone unheard. */
  staledAll(): void {
    for (const mark of this.reading.values()) mark.staled = true;
    this.lists.clear();
  }

  /** Each list's newest `window + 1` ids, newest first: one more than kept tells whether older ones exist. */
  private async read(db: Db, keys: readonly ListKey[]): Promise<Map<string, number[]>> {
    const byName = new Map<string, number[]>(keys.map((key) => [nameOf(key), []]));
    const authors = keys.flatMap((key) => (key.by === 'author' ? [key.id] : []));
    const others = keys.filter((key) => key.by !== 'author');
    const limit = this.window + 1;
    await Promise.all([
      ...authors.map(async (author) => {
        const rows = await this.authorsNewest.load(db, author);
        byName.set(
          `author:${author}`,
          rows.map((row) => row.id),
        );
      }),
      ...others.map(async (key) => {
        const rows = await db
          .selectFrom('questions')
          .select('questions.id')
          .where(inLists([key]))
          .orderBy('questions.id', 'desc')
          .limit(limit)
          .execute();
        byName.set(
          nameOf(key),
          rows.map((row) => row.id),
        );
      }),
    ]);
    return byName;
  }
}

/** The lists a question belongs to. */
export function listsOfQuestion(authorId: number, categoryId: number | null, tags: readonly string[]): ListKey[] {
  return [
    { by: 'author', id: authorId },
    ...(categoryId === null ? [] : [{ by: 'category' as const, id: categoryId }]),
    ...tags.map((name) => ({ by: 'tag' as const, name })),
  ];
}
