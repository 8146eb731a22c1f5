import { ClockCache, type CacheStats } from '../lib/clock-cache.js';
import { isCurrent, type CardRead } from './question-cards.js';
import type { QuestionList } from './question-lists.js';
import type { ViewerState } from './viewer-states.js';

/** A first page of a feed as sent, and everything it was made from. */
export interface FeedPage {
  /** The viewer's state version: their answers, likes, hidden questions, follows and blocks. */
  version: number;
  limit: number;
  questionOfTheDay: number | null;
  /** What moderators withheld, as of its `version` (views/moderation-marks.ts). */
  moderationVersion: number;
  /** The followees' question lists it was merged from. */
  authorLists: readonly QuestionList[];
  /** Each question shown, as its card was read. */
  cardReads: readonly CardRead[];
  body: Buffer;
}

/** What a kept page costs beside its body: its cards' and lists' references. */
const PAGE_OVERHEAD_BYTES = 512;

/**
 * The first page of each viewer's feed as the JSON last sent, sent again while nothing it was
 * made from changed: the viewer's own state (its version), the lists merged, the day's question,
 * what moderators withheld and every card shown. A feed is what people open most and refresh most, and assembling and
 * writing its twenty questions costs several times what checking them does. Any change makes the
 * next call assemble the page again; no page is sent on trust or for a time. A page takes about
 * 9 KB; the least recently used are dropped past `maxBytes` (`FEED_PAGES_MB`), and 0 keeps none.
 */
export class FeedPages {
  private readonly pages: ClockCache<number, FeedPage>;

  constructor(private readonly maxBytes: number) {
    this.pages = new ClockCache(maxBytes, (page) => page.body.length + PAGE_OVERHEAD_BYTES);
  }

  /** What is kept, for the metrics. */
  stats(): CacheStats {
    return this.pages.stats();
  }

  /** The JSON of the viewer's first page of `limit` questions, when the one kept is still right. */
  find(
    viewer: ViewerState,
    limit: number,
    questionOfTheDay: number | null,
    moderationVersion: number,
  ): Buffer | undefined {
    const page = this.pages.get(viewer.userId);
    if (
      page === undefined ||
      page.version !== viewer.version ||
      page.limit !== limit ||
      page.questionOfTheDay !== questionOfTheDay ||
      page.moderationVersion !== moderationVersion ||
      !page.authorLists.every((list) => list.current) ||
      !page.cardReads.every(isCurrent)
    ) {
      return undefined;
    }
    return page.body;
  }

  /** The person's account was deleted. */
  forget(userId: number): void {
    this.pages.delete(userId);
  }

  keep(userId: number, page: FeedPage): void {
    if (this.maxBytes > 0) this.pages.set(userId, page);
  }
}
