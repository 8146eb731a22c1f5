import type { Gender } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import { ClockCache, type CacheStats } from '../../lib/clock-cache.js';
import { blockCell, blockSize, GENDERS } from '../../private-release/breakdown-cells.js';
import { nextReleasePoint } from '../../private-release/schedule.js';
import type { ExploredQuestion } from './access.js';
import { bandOf } from './ages.js';
import { releaseDueEpochs, type BreakdownEpoch } from './breakdown-epochs.js';
import { drawAndKeepNoise, type ReleasedNoise } from './breakdown-release.js';
import { bucketsOf, type Buckets } from './buckets.js';
import { addCount, type Counts } from './counts.js';
import type { NoiseStore } from './noise-store.js';

/** A question's votes up to the latest epoch of its breakdown release: its first `counted` votes, by cell. */
export interface SegmentTable {
  questionId: number;
  /** The release's epochs, oldest first; none before its first release point. */
  epochs: BreakdownEpoch[];
  /** The seq of the last vote of the latest epoch: every vote up to it that still exists is counted. */
  counted: number;
  /** The question's `votes_removed` when the table was built: once more are removed, it is built again. */
  removed: number;
  buckets: Buckets;
  /** Whether the question is multiple choice, whose answers' totals are not public. */
  multipleChoice: boolean;
  /** The year the question was asked: voters' ages are the ages they reach in it. */
  year: number;
  /** Everyone's votes per answer, exact. */
  votes: Counts;
  /** Votes by gender, age band and answer bucket (a block: private-release/breakdown-cells.ts), over every country. */
  everywhere: Int32Array;
  /** The same in each country that has voters. */
  countries: Map<number, Int32Array>;
  /** Voters by birth year: the ages a breakdown offers. */
  birthYears: Map<number, number>;
  /** The noise of the release's estimate up to the latest epoch, read once. */
  release: Promise<ReleasedNoise> | null;
}

interface CellRow {
  country_id: number;
  gender: Gender;
  birth_year: number;
  choice: number;
  count: number;
}

/** Adds (or with sign −1 takes away) rows of votes. */
function addRows(table: SegmentTable, rows: CellRow[], sign: 1 | -1): void {
  const size = blockSize(table.buckets.count);
  for (const row of rows) {
    const count = sign * Number(row.count);
    const index = blockCell(
      table.buckets.count,
      GENDERS.indexOf(row.gender),
      bandOf(table.year - row.birth_year),
      table.buckets.of(row.choice),
    );
    let country = table.countries.get(row.country_id);
    if (!country) table.countries.set(row.country_id, (country = new Int32Array(size)));
    country[index] += count;
    table.everywhere[index] += count;
    addCount(table.votes, row.choice, count);
    addCount(table.birthYears, row.birth_year, count);
  }
}

/** Exact counts and their noise, per country and over every country: the noise weighs double (64-bit). */
function cellsOf(table: SegmentTable): number {
  return (1 + table.countries.size) * (table.release ? 3 : 1) * blockSize(table.buckets.count);
}

/**
 * The tables breakdown reads, one per question, kept in memory at the epoch of the question's
 * breakdown release: a release counts the question's votes up to its last release point
 * (private-release/schedule.ts), so a table moves on only when the votes pass the next one, by the votes
 * cast since (a vote's `seq` is its place in its question's order, handed out in commit order,
 * and each vote carries its voter's group as it was when cast). A table read at one epoch is
 * never changed: the next epoch is a new table. Each server instance keeps its own, read from the
 * shared database, so instances agree. The least used tables are dropped past `maxCells` cells
 * in all (but the one just used).
 */
export class SegmentTables {
  private readonly tables: ClockCache<number, SegmentTable>;
  private readonly updates = new Map<number, Promise<SegmentTable>>();

  constructor(
    private readonly db: Db,
    private readonly noiseStore: NoiseStore,
    maxCells: number,
  ) {
    this.tables = new ClockCache(maxCells, cellsOf);
  }

  /**
   * The table of a question at the epoch its last seq (as read in this request) has reached, or
   * a later one: every vote up to then is committed, since votes are counted in their question's
   * row in the transaction that writes them. Seqs go on past the votes deleted with their
   * voters' accounts: the last is `vote_count + votes_removed`. The epochs due by then are
   * released on the way (releaseDueEpochs writes them).
   */
  async current(
    question: Pick<ExploredQuestion, 'id' | 'vote_count' | 'votes_removed' | 'kind' | 'year'>,
  ): Promise<SegmentTable> {
    const seq = question.vote_count + question.votes_removed;
    for (;;) {
      const pending = this.updates.get(question.id);
      if (pending) {
        await pending.catch(() => undefined);
        continue;
      }
      const kept = this.tables.get(question.id);
      // Votes removed since a table was built may be any it counts: then it is built again.
      const current = kept && kept.removed >= question.votes_removed ? kept : undefined;
      if (current && seq < nextReleasePoint(current.counted)) return current;
      // One update of a question at a time, each from the epoch the last one reached.
      const update = (current ? this.advance(current, seq) : this.build(question, seq)).then((table) => {
        this.tables.set(question.id, table);
        return table;
      });
      this.updates.set(question.id, update);
      void update.finally(() => this.updates.delete(question.id)).catch(() => undefined);
      return update;
    }
  }

  /** What is kept, for the metrics. */
  stats(): CacheStats {
    return this.tables.stats();
  }

  /** The questions were deleted, or votes they had: their tables go, and are built again if asked for. */
  forget(questionIds: readonly number[]): void {
    for (const questionId of questionIds) this.tables.delete(questionId);
  }

  /**
   * The noise of the release's estimate at a table's latest epoch, worked out once and kept with
   * the table; its draws are made the first time any instance needs them, and written.
   */
  drawAndKeepNoise(table: SegmentTable): Promise<ReleasedNoise> {
    if (!table.release) {
      const release = drawAndKeepNoise(
        this.noiseStore,
        table.questionId,
        table.buckets.count,
        table.multipleChoice,
        table.epochs,
      );
      table.release = release;
      // A failed read is tried again by the next request; a kept table is weighed again with its noise.
      release.catch(() => (table.release = null));
      if (this.tables.get(table.questionId) === table) this.tables.resized(table.questionId);
    }
    return table.release;
  }

  private emptyTable(
    question: Pick<ExploredQuestion, 'id' | 'kind' | 'year'>,
    epochs: BreakdownEpoch[],
    removed: number,
  ): SegmentTable {
    const buckets = bucketsOf(question.kind);
    return {
      questionId: question.id,
      epochs,
      counted: epochs.at(-1)?.counted ?? 0,
      removed,
      buckets,
      multipleChoice: question.kind.type === 'MC',
      year: question.year,
      votes: new Map(),
      everywhere: new Int32Array(blockSize(buckets.count)),
      countries: new Map(),
      birthYears: new Map(),
      release: null,
    };
  }

  /** The votes with a place in their question's order after `after`, up to `upTo`, by cell. */
  private votesBetween(db: Db, questionId: number, after: number, upTo: number): Promise<CellRow[]> {
    return db
      .selectFrom('votes')
      .select(['country_id', 'gender', 'birth_year', 'choice', (eb) => eb.fn.countAll<number>().as('count')])
      .where('question_id', '=', questionId)
      .where('seq', '>', after)
      .where('seq', '<=', upTo)
      .groupBy(['country_id', 'gender', 'birth_year', 'choice'])
      .execute();
  }

  private async advance(previous: SegmentTable, seq: number): Promise<SegmentTable> {
    const epochs = await releaseDueEpochs(
      this.db,
      previous.questionId,
      previous.buckets.count,
      previous.multipleChoice,
      seq,
    );
    const table: SegmentTable = {
      ...previous,
      epochs,
      counted: epochs.at(-1)?.counted ?? 0,
      votes: new Map(previous.votes),
      everywhere: previous.everywhere.slice(),
      countries: new Map([...previous.countries].map(([country, cells]) => [country, cells.slice()])),
      birthYears: new Map(previous.birthYears),
      release: null,
    };
    addRows(table, await this.votesBetween(this.db, table.questionId, previous.counted, table.counted), 1);
    if (previous.release) void this.drawAndKeepNoise(table).catch(() => undefined);
    return table;
  }

  private async build(question: Pick<ExploredQuestion, 'id' | 'kind' | 'year'>, seq: number): Promise<SegmentTable> {
    const epochs = await releaseDueEpochs(
      this.db,
      question.id,
      bucketsOf(question.kind).count,
      question.kind.type === 'MC',
      seq,
    );
    // One snapshot: the question's segments count exactly its votes, and the votes past the
    // release point are taken away from them; the deleted votes kept are all within it.
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const { vote_count, votes_removed } = await trx
          .selectFrom('questions')
          .select(['vote_count', 'votes_removed'])
          .where('id', '=', question.id)
          .executeTakeFirstOrThrow();
        const table = this.emptyTable(question, epochs, votes_removed);
        // The votes of deleted accounts that released epochs counted stay in them (kept-votes.ts).
        for (const segments of ['vote_segments', 'removed_vote_segments'] as const) {
          addRows(
            table,
            await trx
              .selectFrom(segments)
              .select(['country_id', 'gender', 'birth_year', 'choice', 'count'])
              .where('question_id', '=', question.id)
              .execute(),
            1,
          );
        }
        addRows(table, await this.votesBetween(trx, question.id, table.counted, vote_count + votes_removed), -1);
        for (const [country, cells] of table.countries)
          if (cells.every((count) => count === 0)) table.countries.delete(country);
        return table;
      });
  }
}
