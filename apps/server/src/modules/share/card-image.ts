import type { Question, UiLocale } from '@pollscope/contract';
import { createHash } from 'node:crypto';
import { HttpError } from '../../errors.js';
import { ClockCache } from '../../lib/clock-cache.js';
import { CardDrawer } from './card-drawer.js';
import { shownOf } from './wording.js';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

/**
 * Names what the picture shows: it changes when the title, the author's name, the shown count or the language of its
 * frame (the asker's) does.
 */
export function cardVersion(question: Question, locale: UiLocale): string {
  return createHash('sha256')
    .update(JSON.stringify(shownOf(question, locale)))
    .digest('base64url')
    .slice(0, 12);
}

export class PicturesBusyError extends HttpError {
  constructor() {
    super(503, 'Too many pictures to draw at once, try again in a few seconds');
  }
}

/**
 * The pictures link previews show of questions (og:image), drawn when one is first asked for and
 * kept, up to `megabytes`, under the version of what they show. They are drawn one at a time in
 * a thread of their own, so a burst of previews takes one core at most, and never the event loop.
 */
export class CardImages {
  private readonly kept: ClockCache<string, Buffer>;
  private readonly drawing = new Map<string, Promise<Buffer>>();
  private lastDrawn: Promise<unknown> = Promise.resolve();

  /** `maxWaiting`: pictures waiting to be drawn at most; past that a request for another is refused for now. */
  constructor(
    megabytes: number,
    private readonly maxWaiting = 32,
    private readonly drawer = new CardDrawer(),
  ) {
    this.kept = new ClockCache(megabytes * 1024 * 1024, (png) => png.length);
  }

  /**
   * The question's picture as a PNG, its frame in `locale` (the asker's language); `version` is its `cardVersion`, which
   * names the question and the language too.
   */
  async png(question: Question, locale: UiLocale, version = cardVersion(question, locale)): Promise<Buffer> {
    const kept = this.kept.get(version);
    if (kept) return kept;
    let drawn = this.drawing.get(version);
    if (!drawn) {
      if (this.drawing.size >= this.maxWaiting) throw new PicturesBusyError();
      drawn = this.lastDrawn.then(() => this.drawer.draw(shownOf(question, locale)));
      this.drawing.set(version, drawn);
      this.lastDrawn = drawn
        .then(
          (png) => this.kept.set(version, png),
          () => undefined,
        )
        .finally(() => this.drawing.delete(version));
    }
    return drawn;
  }

  /** Ends the drawing thread, if one is running. */
  close(): Promise<void> {
    return this.drawer.close();
  }
}
