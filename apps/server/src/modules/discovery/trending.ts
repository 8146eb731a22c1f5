import { sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Skeleton } from '../../views/pipeline.js';

/**
 * Votes are counted in slots of ten minutes, as the first 15 characters of their ISO time name them
 * ("2024-05-01T12:3").
 */
const SLOT_MS = 10 * 60_000;
const SLOT_PREFIX = 15;
/** The slots of the last 24 hours: the current one and those that began since, so no older vote counts. */
const WINDOW_SLOTS = (24 * 3_600_000) / SLOT_MS - 1;
/**
 * The most answered questions kept in order: enough for a page after the viewer's hidden and blocked ones are left out.
 */
const RANKED = 100;

const slotOf = (time: number) => Math.floor(time / SLOT_MS);

/**
 * A vote heard while the counts were being read: its place in its question's order tells whether the read counted it.
 */
interface HeardVote {
  questionId: number;
  seq: number;
  at: number;
}

/**
 * The votes of the last 24 hours per question, kept in memory: what is trending is the
 * questions with the most, read with no query. Each vote counted here or on another instance
 * comes as a `voted` change (its applier, plugins/app/memory.ts) and counts at once; the counts are read again
 * from the votes themselves (their time, on the index `votes_by_time`) on first use, every
 * `reloadMs`, and after changes may have gone unheard (`staled`), so that what an instance
 * shows never drifts from the votes stored. Votes heard while a read is under way are counted
 * after it unless the read counted them already, as their place in their question's order says.
 */
export class TrendingCounts {
  /** Votes per question in each slot of the window, by slot number. */
  private slots = new Map<number, Map<number, number>>();
  private totals = new Map<number, number>();
  private ranked: number[] | null = null;
  private loadedAt = -Infinity;
  private loading: Promise<void> | null = null;
  private heardWhileLoading: HeardVote[] | null = null;
  /** Moves whenever the counts may have missed votes: a read that began before is not enough. */
  private generation = 0;
  private loadedGeneration = -1;

  constructor(
    /**
     * Where the votes are read: a handle as current as the primary when asked (a replica that has caught up, or the
     * primary).
     */
    private readonly currentDb: () => Promise<Db>,
    private readonly reloadMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** A vote committed, here or on another instance, with its place in its question's order. */
  voted(questionId: number, seq: number): void {
    const at = this.now();
    if (this.heardWhileLoading) this.heardWhileLoading.push({ questionId, seq, at });
    // Until the counts are first read, the votes themselves are all there is to read.
    else if (this.loadedGeneration >= 0) this.count(questionId, at);
  }

  /** Changes made elsewhere may have gone unheard: the counts are read again before they are used. */
  staled(): void {
    this.generation += 1;
  }

  /** The ids of the questions answered most in the last 24 hours, most first (ties: the newest question first). */
  async ranking(): Promise<number[]> {
    const current = this.loadedGeneration === this.generation;
    if (!current || this.now() - this.loadedAt >= this.reloadMs) {
      this.loading ??= this.load().finally(() => (this.loading = null));
      // Counts that are only due for their regular reading serve meanwhile.
      if (current) this.loading.catch(() => {});
      else await this.loading;
    }
    this.expire();
    return (this.ranked ??= this.rank());
  }

  private count(questionId: number, at: number): void {
    const slot = slotOf(at);
    if (slot < slotOf(this.now()) - WINDOW_SLOTS) return;
    let counts = this.slots.get(slot);
    if (!counts) {
      // A new slot: the oldest leaves, also on an instance nobody asks what is trending.
      this.expire();
      this.slots.set(slot, (counts = new Map()));
    }
    counts.set(questionId, (counts.get(questionId) ?? 0) + 1);
    this.totals.set(questionId, (this.totals.get(questionId) ?? 0) + 1);
    this.ranked = null;
  }

  /** Drops the slots that have left the window. */
  private expire(): void {
    const oldest = slotOf(this.now()) - WINDOW_SLOTS;
    for (const [slot, counts] of this.slots) {
      if (slot >= oldest) continue;
      for (const [questionId, votes] of counts) {
        const left = this.totals.get(questionId)! - votes;
        if (left > 0) this.totals.set(questionId, left);
        else this.totals.delete(questionId);
      }
      this.slots.delete(slot);
      this.ranked = null;
    }
  }

  private rank(): number[] {
    return [...this.totals]
      .sort(([idA, votesA], [idB, votesB]) => votesB - votesA || idB - idA)
      .slice(0, RANKED)
      .map(([id]) => id);
  }

  /**
   * Reads the window's votes per question and slot, with each question's vote count as of the
   * same read (one statement: one snapshot), which tells the votes heard meanwhile it counted.
   */
  private async load(): Promise<void> {
    const startedAt = this.now();
    const generation = this.generation;
    const heard: HeardVote[] = [];
    this.heardWhileLoading = heard;
    try {
      const since = new Date((slotOf(startedAt) - WINDOW_SLOTS) * SLOT_MS).toISOString();
      // Asked once the votes heard are being noted: every vote heard before is in what it reads.
      const db = await this.currentDb();
      const rows = await db
        .selectFrom('votes')
        .innerJoin('questions', 'questions.id', 'votes.question_id')
        .select((eb) => [
          'votes.question_id as questionId',
          sql<string>`substr(votes.created_at, 1, ${sql.lit(SLOT_PREFIX)})`.as('slot'),
          eb.fn.countAll<number>().as('votes'),
          eb.fn.max('questions.vote_count').as('counted'),
        ])
        .where('votes.created_at', '>=', since)
        .groupBy(['votes.question_id', sql`substr(votes.created_at, 1, ${sql.lit(SLOT_PREFIX)})`])
        .execute();
      const counted = new Map<number, number>();
      this.slots = new Map();
      this.totals = new Map();
      for (const row of rows) {
        const slot = slotOf(Date.parse(`${row.slot}0:00.000Z`));
        let counts = this.slots.get(slot);
        if (!counts) this.slots.set(slot, (counts = new Map()));
        counts.set(row.questionId, Number(row.votes));
        this.totals.set(row.questionId, (this.totals.get(row.questionId) ?? 0) + Number(row.votes));
        counted.set(row.questionId, Number(row.counted));
      }
      this.ranked = null;
      this.heardWhileLoading = null;
      for (const vote of heard)
        if (vote.seq > (counted.get(vote.questionId) ?? 0)) this.count(vote.questionId, vote.at);
      this.loadedAt = startedAt;
      this.loadedGeneration = generation;
    } catch (error) {
      // The votes heard meanwhile are not counted: the counts are read again before they are used.
      this.staled();
      throw error;
    } finally {
      this.heardWhileLoading = null;
    }
  }
}

/** A ranking as a list's skeleton: keys fall from the first to the last. */
export function rankedList(ids: readonly number[]): Skeleton {
  return async (before, count) => {
    const start = before === null ? 0 : ids.length - before + 1;
    return ids.slice(start, start + count).map((id, index) => ({ id, key: ids.length - start - index }));
  };
}
