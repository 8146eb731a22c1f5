import type { LiveResult } from '@pollscope/contract';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Db } from '../../db/index.js';
import { registerGauge } from '../../lib/metrics.js';
import { resultOf, type CardRead, type QuestionCards } from '../../views/question-cards.js';

declare module 'fastify' {
  interface FastifyInstance {
    live: LiveHub;
  }
}

/** A question's live state from its card, with its result for a viewer who may see it. */
export function liveResultOf({ card, moving }: CardRead, seesResult: boolean): LiveResult {
  return { id: card.id, result: seesResult ? resultOf(card, moving) : null, like_count: moving.likeCount };
}

/** One open live stream of one viewer on one question. */
export interface Watcher {
  viewerId: number;
  /** Whether the viewer sees the result (rules.ts): set when the stream opens, and once they answer. */
  seesResult: boolean;
  send(result: LiveResult): void;
  end(): void;
}

/** What to send at the question's next refresh. */
interface Pending {
  /** Something changed: every watcher gets the new state. */
  changed: boolean;
  /** New streams, which get the current state first. */
  newcomers: Set<Watcher>;
}

/**
 * The live streams of this instance, by question. It is told of every vote and like, made here
 * or on another instance (changes/apply.ts); a change sets the question's pending work and one
 * refresh at a time reads the question's card and sends it to each of its streams: a burst of
 * votes on one question costs a few reads, and each stream gets the states in the order they
 * were read, the last one read after the last change.
 */
export class LiveHub {
  private readonly watched = new Map<number, Set<Watcher>>();
  private readonly pending = new Map<number, Pending>();
  private readonly refreshing = new Set<number>();

  constructor(
    private readonly db: Db,
    private readonly cards: QuestionCards,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A vote or like by `actorId` on the question was committed; a vote lets its voter see the result. */
  changed(questionId: number, actorId: number, voted: boolean): void {
    const watchers = this.watched.get(questionId);
    if (!watchers) return;
    if (voted) for (const watcher of watchers) if (watcher.viewerId === actorId) watcher.seesResult = true;
    this.schedule(questionId, { changed: true });
  }

  /** An account was deleted: its person's streams end, and so do those of its questions, which are gone. */
  deleted(userId: number, questionIds: readonly number[]): void {
    const gone = new Set(questionIds);
    for (const [questionId, watchers] of this.watched) {
      for (const watcher of watchers) {
        if (!gone.has(questionId) && watcher.viewerId !== userId) continue;
        watchers.delete(watcher);
        watcher.end();
      }
      if (watchers.size === 0) this.watched.delete(questionId);
    }
  }

  /** Changes may have gone unheard: every watched question is read again. */
  missed(): void {
    for (const questionId of this.watched.keys()) this.schedule(questionId, { changed: true });
  }

  /** Sends the question's current state to the watcher, then each new one. Returns what stops it. */
  watch(questionId: number, watcher: Watcher): () => void {
    let watchers = this.watched.get(questionId);
    if (!watchers) this.watched.set(questionId, (watchers = new Set()));
    watchers.add(watcher);
    this.schedule(questionId, { newcomer: watcher });
    return () => {
      const current = this.watched.get(questionId);
      if (current?.delete(watcher) && current.size === 0) this.watched.delete(questionId);
    };
  }

  /** The streams open now. */
  get streams(): number {
    let open = 0;
    for (const watchers of this.watched.values()) open += watchers.size;
    return open;
  }

  /** Ends every stream: their clients reconnect, to another instance. */
  close(): void {
    for (const watchers of this.watched.values()) for (const watcher of watchers) watcher.end();
    this.watched.clear();
  }

  private schedule(questionId: number, work: { changed?: boolean; newcomer?: Watcher }): void {
    let pending = this.pending.get(questionId);
    if (!pending) this.pending.set(questionId, (pending = { changed: false, newcomers: new Set() }));
    if (work.changed) pending.changed = true;
    if (work.newcomer) pending.newcomers.add(work.newcomer);
    if (this.refreshing.has(questionId)) return;
    this.refreshing.add(questionId);
    void this.refresh(questionId);
  }

  private async refresh(questionId: number): Promise<void> {
    for (;;) {
      const pending = this.pending.get(questionId);
      if (!pending) {
        this.refreshing.delete(questionId);
        return;
      }
      this.pending.delete(questionId);
      try {
        await this.send(questionId, pending);
      } catch (error) {
        this.log.warn({ err: error, questionId }, 'live results: reading a question failed');
      }
    }
  }

  private async send(questionId: number, pending: Pending): Promise<void> {
    const watchers = this.watched.get(questionId);
    if (!watchers) return;
    const read = (await this.cards.read(this.db, [questionId])).get(questionId);
    if (!read) return;
    for (const watcher of watchers) {
      if (!pending.changed && !pending.newcomers.has(watcher)) continue;
      watcher.send(liveResultOf(read, watcher.seesResult));
    }
  }
}

/** The app's live hub: its streams end before the server closes, so clients reconnect elsewhere. */
export const livePlugin = fp(
  async (app: FastifyInstance) => {
    const hub = new LiveHub(app.db, app.memory.cards, app.log);
    app.decorate('live', hub);
    app.addHook('preClose', async () => hub.close());
    registerGauge(app.metrics, 'live_result_streams', 'Live streams of question results open on this instance', () => hub.streams);
  },
  { name: 'live', dependencies: ['metrics', 'memory'] },
);
