import type { LiveResult } from '@pollscope/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/index.js';
import type { ModerationMarks } from '../../views/moderation-marks.js';
import { resultOf, type CardRead, type QuestionCards } from '../../views/question-cards.js';
import { isBlocked, isVisible, seesResult } from '../../views/rules.js';
import type { ViewerState, ViewerStates } from '../../views/viewer-states.js';

/** A question's live state from its card, with its result for a viewer who may see it. */
export function liveResultOf({ card, moving }: CardRead, seesResult: boolean): LiveResult {
  return {
    id: card.id,
    result: seesResult ? resultOf(card, moving) : null,
    like_count: moving.likeCount,
    vote_count: moving.voteCount,
  };
}

/** What a live stream sends to, and how it is ended. */
export interface LiveSink {
  send(result: LiveResult): void;
  end(): void;
}

/** One open live stream of one viewer, or of a visitor, on one question. */
interface Watcher {
  sink: LiveSink;
  questionId: number;
  /** Null for a visitor (the embed), whom the rules treat as someone signed out and whose state never moves. */
  viewerId: number | null;
  /** The viewer's state the rules are asked of at each send; null for a visitor. */
  viewer: ViewerState | null;
  /** Set once a change moved the viewer's state, until it is read again. */
  stale: boolean;
  /** How many changes to the viewer's state were heard: a state read while one more came may predate it. */
  moves: number;
}

/** What to send at the question's next refresh; the rules are asked for every stream at each one. */
interface Pending {
  /** Something changed: every watcher gets the new state. */
  changed: boolean;
  /** Streams owed the current state: new ones, and those whose viewer's state moved during the round that owed it. */
  newcomers: Set<Watcher>;
}

/**
 * The live streams of this instance, by question. It is told of every vote and like, and of every
 * change to what a watcher may see, made here or on another instance (appliers.ts); a change
 * sets the question's pending work and one refresh at a time reads the question's card, asks the
 * rules (views/rules.ts) for each of its streams, ends those the rules no longer allow and sends
 * the state to the others: a burst of votes on one question costs a few reads, and each stream
 * gets the states in the order they were read, the last one read after the last change.
 */
export class LiveHub {
  private readonly watched = new Map<number, Set<Watcher>>();
  /** The same streams by viewer, so that a change to one person's state costs only their streams. */
  private readonly byViewer = new Map<number, Set<Watcher>>();
  private readonly pending = new Map<number, Pending>();
  private readonly refreshing = new Set<number>();

  constructor(
    private readonly db: Db,
    private readonly cards: QuestionCards,
    private readonly viewers: ViewerStates,
    private readonly moderation: ModerationMarks,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** A vote or like on the question was committed: its streams get the new state. */
  changed(questionId: number): void {
    if (this.watched.has(questionId)) this.schedule(questionId, { changed: true });
  }

  /**
   * What the person may see moved (their vote, a block either way): the streams they watch ask
   * the rules again of their state, read again, before anything more is sent to them.
   */
  viewerChanged(userId: number): void {
    for (const watcher of this.byViewer.get(userId) ?? []) {
      watcher.stale = true;
      watcher.moves += 1;
      this.schedule(watcher.questionId, {});
    }
  }

  /**
   * What moderation withholds moved, of the question or of every question (a suspension): the rules are asked again.
   */
  withheldChanged(questionId?: number): void {
    for (const watchedId of this.watched.keys())
      if (questionId === undefined || watchedId === questionId) this.schedule(watchedId, {});
  }

  /** Questions were deleted with their author's account: their streams end. */
  deleted(questionIds: readonly number[]): void {
    for (const questionId of questionIds) for (const watcher of this.watched.get(questionId) ?? []) this.end(watcher);
  }

  /** Changes may have gone unheard: every watched question and every watcher's state is read again. */
  missed(): void {
    for (const [questionId, watchers] of this.watched) {
      for (const watcher of watchers) {
        watcher.stale = watcher.viewerId !== null;
        watcher.moves += 1;
      }
      this.schedule(questionId, { changed: true });
    }
  }

  /**
   * Sends the question's current state to the viewer's stream (null: a visitor's), then each new one the rules allow.
   * Returns what stops it.
   */
  watch(questionId: number, viewer: ViewerState | null, sink: LiveSink): () => void {
    const viewerId = viewer?.userId ?? null;
    const watcher: Watcher = { sink, questionId, viewerId, viewer, stale: false, moves: 0 };
    addTo(this.watched, questionId, watcher);
    if (viewerId !== null) addTo(this.byViewer, viewerId, watcher);
    this.schedule(questionId, { newcomer: watcher });
    return () => this.forget(watcher);
  }

  /** The streams open now. */
  get streams(): number {
    let open = 0;
    for (const watchers of this.watched.values()) open += watchers.size;
    return open;
  }

  /** Ends every stream: their clients reconnect, to another instance. */
  close(): void {
    for (const watchers of this.watched.values()) for (const watcher of watchers) this.end(watcher);
  }

  private forget(watcher: Watcher): void {
    removeFrom(this.watched, watcher.questionId, watcher);
    if (watcher.viewerId !== null) removeFrom(this.byViewer, watcher.viewerId, watcher);
  }

  private end(watcher: Watcher): void {
    this.forget(watcher);
    watcher.sink.end();
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
    // A state that moved is read once per person, however many of their streams watch the question.
    const stale = new Map<number, { watcher: Watcher; moves: number }[]>();
    for (const watcher of watchers) {
      if (watcher.stale && watcher.viewerId !== null)
        stale.set(watcher.viewerId, [...(stale.get(watcher.viewerId) ?? []), { watcher, moves: watcher.moves }]);
    }
    for (const [viewerId, theirs] of stale) {
      const viewer = await this.viewers.latest(this.db, viewerId);
      for (const { watcher, moves } of theirs) {
        // The account is gone.
        if (viewer === null) this.end(watcher);
        // Unless a change heard during the read set the state aside again, and scheduled the round that reads it.
        else if (watcher.moves === moves) {
          watcher.viewer = viewer;
          watcher.stale = false;
        }
      }
    }
    for (const watcher of watchers) {
      const { viewer } = watcher;
      const due = pending.changed || pending.newcomers.has(watcher);
      if (watcher.stale) {
        // Its state moved during this round: the next round reads it again, and sends what this one owed it.
        if (due) this.schedule(questionId, { newcomer: watcher });
        continue;
      }
      if (!isVisible(this.moderation, viewer, read.card) || isBlocked(viewer, read.card)) {
        this.end(watcher);
        continue;
      }
      if (due) watcher.sink.send(liveResultOf(read, seesResult(viewer, read.card)));
    }
  }
}

function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  let values = map.get(key);
  if (!values) map.set(key, (values = new Set()));
  values.add(value);
}

function removeFrom<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const values = map.get(key);
  if (values?.delete(value) && values.size === 0) map.delete(key);
}
