import type { QuestionModeration } from '@pollscope/contract';
import type { Db } from '../db/index.js';

/** A suspension as every read checks it: when it ends (ms since the epoch; null: never). */
interface Suspension {
  until: number | null;
}

/**
 * What moderators decided that every read must respect (views/rules.ts): the questions withheld
 * (removed, or under review once reports hid them) and the people suspended. Few, so each instance
 * keeps them all, read when it starts and when changes may have gone unheard, and changed by the
 * changes that make them (`questionModerated`, `userSuspended`, `userUnsuspended`): a read checks
 * two maps, never the database.
 */
export class ModerationMarks {
  private questions = new Map<number, QuestionModeration>();
  private suspensions = new Map<number, Suspension>();
  /** Moves with every change of what is withheld, a suspension's end included. */
  private changes = 0;
  /** When the first suspension in effect ends. */
  private nextEnd = Infinity;
  /** Moves with every change heard: a read of the database that one raced is made again. */
  private heard = 0;

  constructor(
    private readonly db: Db,
    private readonly onReadFailed: (error: unknown) => void,
  ) {}

  /** Why the question is withheld from everyone but its author, if it is. */
  questionMark(questionId: number): QuestionModeration | undefined {
    return this.questions.get(questionId);
  }

  /** Whether the person's suspension lasts now. */
  isSuspended(userId: number): boolean {
    if (this.suspensions.size === 0) return false;
    const suspension = this.suspensions.get(userId);
    return suspension !== undefined && (suspension.until === null || suspension.until > Date.now());
  }

  /**
   * Moves whenever what is withheld changes, and when a suspension ends: something kept that was
   * made at another version (a feed's first page) may show what it must not, or leave out what it
   * now may.
   */
  get version(): number {
    const now = Date.now();
    if (now >= this.nextEnd) {
      for (const [userId, { until }] of this.suspensions)
        if (until !== null && until <= now) this.suspensions.delete(userId);
      this.changes += 1;
      this.nextEnd = this.firstEnd();
    }
    return this.changes;
  }

  /** A moderator removed or restored the question, reports hid it, or a decision showed it again (null). */
  questionMarked(questionId: number, mark: QuestionModeration | null): void {
    this.heard += 1;
    this.changes += 1;
    if (mark) this.questions.set(questionId, mark);
    else this.questions.delete(questionId);
  }

  /** A moderator suspended the person until `until` (an ISO time; null: for ever), or ended it (undefined). */
  suspended(userId: number, until: string | null | undefined): void {
    this.heard += 1;
    this.changes += 1;
    if (until === undefined) this.suspensions.delete(userId);
    else this.suspensions.set(userId, { until: until === null ? null : Date.parse(until) });
    this.nextEnd = this.firstEnd();
  }

  /** The person's account was deleted, and their questions with it. */
  forget(userId: number, questionIds: readonly number[]): void {
    this.heard += 1;
    this.suspensions.delete(userId);
    for (const questionId of questionIds) this.questions.delete(questionId);
  }

  /** Reads everything withheld from the database; one raced by a change heard meanwhile is read again. */
  async load(): Promise<void> {
    for (;;) {
      const heard = this.heard;
      const now = new Date().toISOString();
      const [questions, people] = await Promise.all([
        this.db
          .selectFrom('questions')
          .select(['id', 'moderation', 'moderation_reason'])
          .where('moderation', 'is not', null)
          .execute(),
        this.db
          .selectFrom('users')
          .select(['id', 'suspended_until'])
          .where('suspension_reason', 'is not', null)
          .where((eb) => eb.or([eb('suspended_until', 'is', null), eb('suspended_until', '>', now)]))
          .execute(),
      ]);
      if (heard !== this.heard) continue;
      this.questions = new Map(
        questions.map((row) => [row.id, { status: row.moderation!, reason: row.moderation_reason }]),
      );
      this.suspensions = new Map(
        people.map((row) => [row.id, { until: row.suspended_until === null ? null : Date.parse(row.suspended_until) }]),
      );
      this.changes += 1;
      this.nextEnd = this.firstEnd();
      return;
    }
  }

  /** Changes may have gone unheard: read everything again, meanwhile answering from what is kept. */
  staled(): void {
    this.heard += 1;
    this.load().catch(this.onReadFailed);
  }

  private firstEnd(): number {
    const now = Date.now();
    let first = Infinity;
    for (const { until } of this.suspensions.values())
      if (until !== null && until > now && until < first) first = until;
    return first;
  }
}
