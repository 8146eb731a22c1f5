import type { LiveResult } from '@pollscope/contract';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import { localBus, redisBus, type Deliver, type LiveBus } from './bus.js';
import { liveResultFor, questionState, seesResult } from './results.js';

declare module 'fastify' {
  interface FastifyInstance {
    live: LiveHub;
  }
}

/** One open live stream of one viewer on one question. */
export interface Watcher {
  viewerId: number;
  send(result: LiveResult): void;
  end(): void;
}

interface Watched {
  watchers: Map<Watcher, { seesResult: boolean }>;
  /** Settles once this instance hears the question's changes. */
  following: Promise<void>;
}

/** What to send at the question's next refresh. */
interface Pending {
  /** Something changed: every watcher gets the new state. */
  changed: boolean;
  /** Who voted or liked since the last refresh: their own streams may now show the result. */
  actors: Set<number>;
  /** New streams, which get the current state first. */
  newcomers: Set<Watcher>;
}

/**
 * The live streams of this instance, by question. A change sets the question's pending work and
 * one refresh at a time reads the question (two queries) and sends it to each of its streams:
 * a burst of votes on one question costs a few reads, not one per vote and viewer, and each
 * stream gets the states in the order they were read, the last one read after the last change.
 */
export class LiveHub {
  private readonly watched = new Map<number, Watched>();
  private readonly pending = new Map<number, Pending>();
  private readonly refreshing = new Set<number>();
  private readonly bus: LiveBus;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    makeBus: (deliver: Deliver, missedSome: () => void) => LiveBus,
  ) {
    this.bus = makeBus(
      ({ questionId, actorId }) => this.schedule(questionId, { changed: true, actor: actorId }),
      () => {
        for (const questionId of this.watched.keys()) this.schedule(questionId, { changed: true });
      },
    );
  }

  /**
   * Tells the viewers of a question, on every instance, that a vote or a like by `actorId` was
   * committed on it. Never fails: the vote stands whether or not the news of it gets out.
   */
  publish(questionId: number, actorId: number): void {
    this.bus.publish({ questionId, actorId }).catch((error) => this.log.warn({ err: error, questionId }, 'live results: publishing a change failed'));
  }

  /** Sends the question's current state to the watcher, then each new one. Returns what stops it. */
  watch(questionId: number, watcher: Watcher): () => void {
    let watched = this.watched.get(questionId);
    if (!watched) {
      const following = this.bus.follow(questionId).catch((error) => this.log.warn({ err: error, questionId }, 'live results: following a question failed'));
      watched = { watchers: new Map(), following };
      this.watched.set(questionId, watched);
    }
    watched.watchers.set(watcher, { seesResult: false });
    // The first state is read once this instance hears every later change.
    void watched.following.then(() => this.schedule(questionId, { newcomer: watcher }));
    return () => {
      const current = this.watched.get(questionId);
      if (!current?.watchers.delete(watcher) || current.watchers.size > 0) return;
      this.watched.delete(questionId);
      this.bus.unfollow(questionId).catch((error) => this.log.warn({ err: error, questionId }, 'live results: unfollowing a question failed'));
    };
  }

  /** Ends every stream (their clients reconnect, to another instance) and leaves the bus. */
  async close(): Promise<void> {
    for (const { watchers } of this.watched.values()) for (const watcher of watchers.keys()) watcher.end();
    this.watched.clear();
    await this.bus.close();
  }

  private schedule(questionId: number, work: { changed?: boolean; actor?: number; newcomer?: Watcher }): void {
    if (!this.watched.has(questionId)) return;
    let pending = this.pending.get(questionId);
    if (!pending) this.pending.set(questionId, (pending = { changed: false, actors: new Set(), newcomers: new Set() }));
    if (work.changed) pending.changed = true;
    if (work.actor !== undefined) pending.actors.add(work.actor);
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
    const watchers = this.watched.get(questionId)?.watchers;
    if (!watchers) return;
    const state = await questionState(this.db, questionId);
    if (!state) return;
    for (const [watcher, access] of watchers) {
      const isNew = pending.newcomers.has(watcher);
      if (!pending.changed && !isNew) continue;
      // Answering is what lets a viewer see the result, so only the actors' own streams are checked again.
      if (!access.seesResult && (isNew || pending.actors.has(watcher.viewerId))) access.seesResult = await seesResult(this.db, watcher.viewerId, state);
      watcher.send(liveResultFor(state, access.seesResult));
    }
  }
}

/** Decorates the app with its live hub, over Redis when the instances share one, else within this instance. */
export function registerLive(app: FastifyInstance): void {
  const hub = new LiveHub(app.db, app.log, (deliver, missedSome) =>
    app.redis ? redisBus(app.redis, app.config.redisPrefix, deliver, missedSome, app.log) : localBus(deliver),
  );
  app.decorate('live', hub);
  app.addHook('preClose', async () => hub.close());
}
