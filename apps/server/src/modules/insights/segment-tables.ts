import type { Gender } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import { ClockCache, type CacheStats } from '../../lib/clock-cache.js';
import type { ExploredQuestion } from './access.js';
import { AGE_BANDS, bandOf } from './ages.js';
import { bucketsOf, type Buckets } from './buckets.js';
import { addCount, type Counts } from './counts.js';
import { NoiseStore } from './noise-store.js';
import { BREAKDOWN_VARIANCE, RELEASES } from './privacy-budget.js';

export const GENDERS: readonly Gender[] = ['F', 'M'];

/** Cell ids of a country's block in `release_noise` start at the country's id times this; every country together is block 0. */
const CELLS_PER_COUNTRY = 256;

/** The id in `release_noise` of a block's first cell: its country's (null for every country). */
export function firstCellOf(country: number | null): number {
  return (country ?? 0) * CELLS_PER_COUNTRY;
}

/** A question's votes at one epoch of its breakdown release: its first `counted` votes, by cell. */
export interface SegmentTable {
  questionId: number;
  epoch: number;
  /** The seq of the last vote of the epoch: every vote up to it that still exists is counted. */
  counted: number;
  /** The question's `votes_removed` when the table was built: once more are removed, it is built again. */
  removed: number;
  buckets: Buckets;
  /** The year the question was asked: voters' ages are the ages they reach in it. */
  year: number;
  /** Everyone's votes per answer, exact. */
  votes: Counts;
  /** Votes by gender, age band and answer bucket (cellIndex), over every country. */
  everywhere: Int32Array;
  /** The same in each country that has voters. */
  countries: Map<number, Int32Array>;
  /** Voters by birth year: the ages a breakdown offers. */
  birthYears: Map<number, number>;
  /** The noise of each block read at this epoch, by country (0 for every country). */
  noise: Map<number, Promise<Int32Array>>;
}

/** Where the votes of one gender, age band and answer bucket are counted in a block. */
export function cellIndex(buckets: Buckets, gender: number, band: number, bucket: number): number {
  return (gender * AGE_BANDS.length + band) * buckets.count + bucket;
}

function blockSize(buckets: Buckets): number {
  return GENDERS.length * AGE_BANDS.length * buckets.count;
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
  const size = blockSize(table.buckets);
  for (const row of rows) {
    const count = sign * Number(row.count);
    const index = cellIndex(table.buckets, GENDERS.indexOf(row.gender), bandOf(table.year - row.birth_year), table.buckets.of(row.choice));
    let country = table.countries.get(row.country_id);
    if (!country) table.countries.set(row.country_id, (country = new Int32Array(size)));
    country[index] += count;
    table.everywhere[index] += count;
    addCount(table.votes, row.choice, count);
    addCount(table.birthYears, row.birth_year, count);
  }
}

function cellsOf(table: SegmentTable): number {
  return (1 + table.countries.size + table.noise.size) * blockSize(table.buckets);
}

/**
 * The tables breakdown reads, one per question, kept in memory at the epoch of the question's
 * breakdown release: a release counts the question's votes up to its last release point
 * (privacy-budget.ts), so a table moves on only when the votes pass the next one, by the votes
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
   * voters' accounts: the last is `vote_count + votes_removed`.
   */
  async current(question: Pick<ExploredQuestion, 'id' | 'vote_count' | 'votes_removed' | 'kind' | 'year'>): Promise<SegmentTable> {
    const epoch = RELEASES.index(question.vote_count + question.votes_removed);
    for (;;) {
      const pending = this.updates.get(question.id);
      if (pending) {
        await pending.catch(() => undefined);
        continue;
      }
      const kept = this.tables.get(question.id);
      // Votes removed since a table was built may be any it counts: then it is built again.
      const current = kept && kept.removed >= question.votes_removed ? kept : undefined;
      if (current && current.epoch >= epoch) return current;
      // One update of a question at a time, each from the epoch the last one reached.
      const update = (current ? this.advance(current, epoch) : this.build(question, epoch)).then((table) => {
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

  /** The noise of one block of a table (a country, or every country when null), drawn or read once per epoch. */
  noiseOf(table: SegmentTable, country: number | null): Promise<Int32Array> {
    const block = country ?? 0;
    let noise = table.noise.get(block);
    if (!noise) {
      noise = this.noiseStore.sums(
        { questionId: table.questionId, otherId: 0, firstCell: firstCellOf(country), cells: blockSize(table.buckets), variance: BREAKDOWN_VARIANCE },
        table.epoch,
      );
      table.noise.set(block, noise);
      // A failed read is tried again by the next request; a kept table is weighed again with its noise.
      noise.catch(() => table.noise.delete(block));
      if (this.tables.get(table.questionId) === table) this.tables.resized(table.questionId);
    }
    return noise;
  }

  private emptyTable(question: Pick<ExploredQuestion, 'id' | 'kind' | 'year'>, epoch: number, removed: number): SegmentTable {
    const buckets = bucketsOf(question.kind);
    return {
      questionId: question.id,
      epoch,
      counted: RELEASES.point(epoch),
      removed,
      buckets,
      year: question.year,
      votes: new Map(),
      everywhere: new Int32Array(blockSize(buckets)),
      countries: new Map(),
      birthYears: new Map(),
      noise: new Map(),
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

  private async advance(previous: SegmentTable, epoch: number): Promise<SegmentTable> {
    const table: SegmentTable = {
      ...previous,
      epoch,
      counted: RELEASES.point(epoch),
      votes: new Map(previous.votes),
      everywhere: previous.everywhere.slice(),
      countries: new Map([...previous.countries].map(([country, cells]) => [country, cells.slice()])),
      birthYears: new Map(previous.birthYears),
      noise: new Map(),
    };
    addRows(table, await this.votesBetween(this.db, table.questionId, previous.counted, table.counted), 1);
    return table;
  }

  private build(question: Pick<ExploredQuestion, 'id' | 'kind' | 'year'>, epoch: number): Promise<SegmentTable> {
    // One snapshot: the question's segments count exactly its votes, and the votes past the
    // release point are taken away from them.
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const { vote_count, votes_removed } = await trx.selectFrom('questions').select(['vote_count', 'votes_removed']).where('id', '=', question.id).executeTakeFirstOrThrow();
        const table = this.emptyTable(question, epoch, votes_removed);
        addRows(table, await trx.selectFrom('vote_segments').select(['country_id', 'gender', 'birth_year', 'choice', 'count']).where('question_id', '=', question.id).execute(), 1);
        addRows(table, await this.votesBetween(trx, question.id, table.counted, vote_count + votes_removed), -1);
        for (const [country, cells] of table.countries) if (cells.every((count) => count === 0)) table.countries.delete(country);
        return table;
      });
  }
}
