import type { Gender } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import type { QuestionRow } from '../../db/schema.js';
import { ClockCache, type CacheStats } from '../../lib/clock-cache.js';
import { addCount, type Counts } from './counts.js';
import { GENDERS } from './disclosure.js';

/** The voters of one gender and birth year: how many, and their votes per choice. */
export interface Segment {
  gender: Gender;
  birthYear: number;
  voters: number;
  votes: Counts;
}

/** Segments by gender and birth year (segmentKey). */
export type Segments = Map<number, Segment>;

/** The votes of one question by the voters' country, gender, birth year and choice, with the sums a breakdown reads. */
export interface SegmentTable {
  questionId: number;
  /** The seq of the last vote it counts: the question's `vote_count + votes_removed` when the table was last brought up to date. */
  counted: number;
  /** The question's `votes_removed` when the table was built: once more are removed, it is built again. */
  removed: number;
  /** Its (country, gender, birth year, choice) cells with votes: what it weighs in the budget. */
  cells: number;
  /** Everyone's votes per choice. */
  votes: Counts;
  /** The segments of every country together. */
  everywhere: Segments;
  /** Each country's voters and segments. */
  countries: Map<number, { voters: number; segments: Segments }>;
}

interface CellRow {
  country_id: number;
  gender: Gender;
  birth_year: number;
  choice: number;
  count: number;
}

function segmentKey(gender: Gender, birthYear: number): number {
  return birthYear * GENDERS.length + GENDERS.indexOf(gender);
}

function segmentOf(segments: Segments, gender: Gender, birthYear: number): Segment {
  const key = segmentKey(gender, birthYear);
  let segment = segments.get(key);
  if (!segment) segments.set(key, (segment = { gender, birthYear, voters: 0, votes: new Map() }));
  return segment;
}

function emptyTable(questionId: number, counted: number, removed: number): SegmentTable {
  return { questionId, counted, removed, cells: 0, votes: new Map(), everywhere: new Map(), countries: new Map() };
}

/** What a table is brought up to date with: the question's votes, and those deleted with their voters' accounts. */
export type CountedQuestion = Pick<QuestionRow, 'id' | 'vote_count' | 'votes_removed'>;

function addCells(table: SegmentTable, rows: CellRow[]): void {
  for (const row of rows) {
    const count = Number(row.count);
    let country = table.countries.get(row.country_id);
    if (!country) table.countries.set(row.country_id, (country = { voters: 0, segments: new Map() }));
    country.voters += count;
    const local = segmentOf(country.segments, row.gender, row.birth_year);
    if (!local.votes.has(row.choice)) table.cells += 1;
    local.voters += count;
    addCount(local.votes, row.choice, count);
    const everywhere = segmentOf(table.everywhere, row.gender, row.birth_year);
    everywhere.voters += count;
    addCount(everywhere.votes, row.choice, count);
    addCount(table.votes, row.choice, count);
  }
}

/**
 * The tables breakdown reads, one per question, kept in memory and brought up to date from the
 * votes cast since: a vote's `seq` (its place in its question's order, handed out in commit
 * order) says which votes a table has counted, and each vote carries its voter's group as it was
 * when cast, so the new votes count exactly as `vote_segments` counted them. Building a table
 * reads the question's `vote_segments` rows; keeping it current reads the new votes. Each server
 * instance keeps its own, read from the shared database, so instances agree. The least used
 * tables are dropped past `maxCells` cells in all (but the one just used, even alone past them:
 * dropping it would mean building it again for each request).
 */
export class SegmentTables {
  private readonly tables: ClockCache<number, SegmentTable>;
  private readonly updates = new Map<number, Promise<SegmentTable>>();

  /**
   * A cell takes about 90 bytes in the table of a question of a million votes, and up to about
   * 600 in tables of a few dozen votes, where each segment holds a vote or two. A table of no
   * votes still takes room, so it weighs one cell.
   */
  constructor(
    private readonly db: Db,
    maxCells: number,
  ) {
    this.tables = new ClockCache(maxCells, (table) => Math.max(1, table.cells));
  }

  /** What is kept, for the metrics. */
  stats(): CacheStats {
    return this.tables.stats();
  }

  /**
   * The table of a question as read in this request, or later: it counts at least the votes up
   * to the question's last seq then, and every vote up to that is committed, since votes are
   * counted in their question's row in the transaction that writes them; and none of the votes
   * removed by then.
   */
  async current(question: CountedQuestion): Promise<SegmentTable> {
    const lastSeq = question.vote_count + question.votes_removed;
    for (;;) {
      const pending = this.updates.get(question.id);
      if (pending) {
        await pending.catch(() => undefined);
        continue;
      }
      const kept = this.tables.get(question.id);
      if (kept && kept.counted >= lastSeq && kept.removed >= question.votes_removed) return kept;
      // One update of a question at a time, each from where the last one stopped.
      const update = this.update(question.id, kept, lastSeq, question.votes_removed).finally(() => this.updates.delete(question.id));
      this.updates.set(question.id, update);
      return update;
    }
  }

  /** A table grown in place is weighed again; one dropped while it was brought up to date is kept again. */
  private keep(table: SegmentTable): SegmentTable {
    if (this.tables.get(table.questionId) === table) this.tables.resized(table.questionId);
    else this.tables.set(table.questionId, table);
    return table;
  }

  /** The questions were deleted, or votes they had: their tables go, and are built again if asked for. */
  forget(questionIds: readonly number[]): void {
    for (const questionId of questionIds) this.tables.delete(questionId);
  }

  private async update(questionId: number, previous: SegmentTable | undefined, lastSeq: number, removed: number): Promise<SegmentTable> {
    // Past as many new votes as the table has cells, reading the question's segments costs less;
    // votes removed since it was built may be any it counts.
    if (!previous || removed > previous.removed || lastSeq - previous.counted > previous.cells) return this.keep(await this.build(questionId));
    const rows = await this.db
      .selectFrom('votes')
      .select(['country_id', 'gender', 'birth_year', 'choice', (eb) => eb.fn.countAll<number>().as('count')])
      .where('question_id', '=', questionId)
      .where('seq', '>', previous.counted)
      .where('seq', '<=', lastSeq)
      .groupBy(['country_id', 'gender', 'birth_year', 'choice'])
      .execute();
    // Added in place in one step, so no reader sees half of it and a large table is not copied
    // for each vote.
    addCells(previous, rows);
    previous.counted = lastSeq;
    return this.keep(previous);
  }

  private build(questionId: number): Promise<SegmentTable> {
    // One snapshot: the counts read are exactly the votes the segments count.
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const { vote_count, votes_removed } = await trx.selectFrom('questions').select(['vote_count', 'votes_removed']).where('id', '=', questionId).executeTakeFirstOrThrow();
        const table = emptyTable(questionId, vote_count + votes_removed, votes_removed);
        addCells(table, await trx.selectFrom('vote_segments').select(['country_id', 'gender', 'birth_year', 'choice', 'count']).where('question_id', '=', questionId).execute());
        return table;
      });
  }
}
