import {
  AGE_FILTER_DEFAULTS,
  displayId,
  type BreakdownFilters,
  type BreakdownPrivacy,
  type BreakdownSplits,
  type Comparison,
  type Gender,
  type Result,
  type SplitGroup,
} from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import { blockCell, GENDERS } from '../../private-release/breakdown-cells.js';
import { groupVariance } from '../../private-release/breakdown-design.js';
import { buildResult, roundTo2 } from '../../views/results.js';
import type { ExploredQuestion } from './access.js';
import { AGE_BANDS, agesOf, bandsTouched, type AgeBand, type BandRange } from './ages.js';
import type { ReleasedNoise } from './breakdown-release.js';
import type { Buckets } from './buckets.js';
import { bucketLabels, GROUP_COLUMNS, groupLines, toCsv } from './csv.js';
import {
  bucketResult,
  compareWithEveryone,
  countSdOf,
  mayShow,
  nonNegative,
  publicCounts,
  releasedGroupOf,
  suppressedResult,
  totalOf,
  type ReleasedCounts,
} from './released-groups.js';
import type { SegmentTable, SegmentTables } from './segment-tables.js';

/**
 * A breakdown read goes one way down: the question's segment table (segment-tables.ts: its votes
 * counted in memory, up to the epochs its release has reached), then the release's noise in it
 * (breakdown-release.ts, reached through the table it is kept with), then what the API answers,
 * worked out here and in released-groups.ts from those two without reading anything more.
 */

export interface BreakdownQuery {
  minAge: number;
  maxAge: number;
  gender: Gender | null;
  country: number | null;
}

const GENDER_LABELS: Record<Gender, string> = { F: 'Female', M: 'Male' };

/** The genders a breakdown offers, in the order the release counts them. */
const GENDER_FILTERS: BreakdownFilters['gender'] = GENDERS.map((value) => ({ value, label: GENDER_LABELS[value] }));

/**
 * The filters a question's breakdown offers: genders, its voters' age span and their countries,
 * among every vote so far (its tallies by group) and the votes released epochs keep. Who voted, with their age and country, is not
 * what the release protects: each person's answered questions are public, and so are their age
 * and country (docs/insights.md).
 */
async function breakdownFilters(db: Db, question: ExploredQuestion): Promise<BreakdownFilters> {
  // With the votes of deleted accounts that released epochs still count (kept-votes.ts): the splits stay as released.
  const groups = await db
    .selectFrom('vote_segments')
    .select(['country_id', 'birth_year'])
    .where('question_id', '=', question.id)
    .where('count', '>', 0)
    .union(
      db
        .selectFrom('removed_vote_segments')
        .select(['country_id', 'birth_year'])
        .where('question_id', '=', question.id),
    )
    .execute();
  const birthYears = groups.map((group) => group.birth_year);
  const age =
    birthYears.length === 0
      ? { ...AGE_FILTER_DEFAULTS }
      : { min: question.year - Math.max(...birthYears), max: question.year - Math.min(...birthYears) };
  return {
    gender: GENDER_FILTERS,
    age,
    country: [...new Set(groups.map((group) => group.country_id))].sort((a, b) => a - b),
  };
}

export interface FilteredBreakdown {
  /** The group's result, or a suppressed one when its noisy count says too little. */
  result: Result;
  /** Everyone's result among the votes the release counts, exact. */
  overall: Result;
  comparison: Comparison | null;
  /** The ages the group covers, null for every age. */
  ages: AgeBand | null;
  privacy: BreakdownPrivacy;
  /** For downloads: the group's counts (null when suppressed) and everyone's as published (publicCounts), per bucket. */
  group: ReleasedCounts | null;
  everyone: number[];
  buckets: Buckets;
}

/** Who a group is: genders by index, a run of age bands, and a country or every one. */
interface Group {
  genders: number[];
  bands: BandRange;
  country: number | null;
}

const EVERY_BAND: BandRange = { first: 0, last: AGE_BANDS.length - 1 };
const EVERY_GENDER = GENDERS.map((_, index) => index);

/** The votes a table counts of a group's country, or of every country; none when nobody from there has voted. */
function cellsOf(table: SegmentTable, country: number | null): Int32Array | undefined {
  return country === null ? table.everywhere : table.countries.get(country);
}

/**
 * A group's counts per answer bucket from the release: each the sum of the group's exact cells
 * plus the release's noise in them (the least-squares estimate of each epoch's noisy tables, held
 * to what is public: breakdown-release.ts), made whole and never negative; null when nobody from
 * the group's country has voted (the countries with voters are public).
 */
function releasedCounts(table: SegmentTable, release: ReleasedNoise, group: Group): ReleasedCounts | null {
  const cells = cellsOf(table, group.country);
  if (!cells) return null;
  const noise = group.country === null ? release.everywhere : release.byCountry.get(group.country);
  const answers = table.buckets.count;
  const noisy = Array.from({ length: answers }, (_, bucket) => {
    let sum = 0;
    for (const gender of group.genders) {
      for (let band = group.bands.first; band <= group.bands.last; band += 1) {
        const index = blockCell(answers, gender, band, bucket);
        sum += cells[index] + (noise?.[index] ?? 0);
      }
    }
    return sum;
  });
  const shape = {
    genders: group.genders.length,
    bands: group.bands.last - group.bands.first + 1,
    country: group.country,
  };
  return {
    counts: nonNegative(noisy),
    variance: groupVariance(release.parts, { ...shape, answers: 1 }),
    countVariance: groupVariance(release.parts, { ...shape, answers }),
  };
}

/**
 * A question's result among the voters a filter matches, beside everyone's, from its breakdown
 * release (docs/insights.md, Privacy): the group's counts are read from the release's estimate,
 * kept once worked out, so asking again, or asking for an overlapping group, reads the same
 * numbers. A group that is everyone is exact.
 */
export async function filteredBreakdown(
  tables: SegmentTables,
  question: ExploredQuestion,
  query: BreakdownQuery,
  k: number,
): Promise<FilteredBreakdown> {
  const bands = bandsTouched(query.minAge, query.maxAge);
  const everyAge = bands.first === EVERY_BAND.first && bands.last === EVERY_BAND.last;
  const table = await tables.current(question);
  if (query.gender === null && everyAge && query.country === null) return everyoneBreakdown(question, table.buckets);
  const group = {
    genders: query.gender === null ? EVERY_GENDER : [GENDERS.indexOf(query.gender)],
    bands,
    country: query.country,
  };
  // A country nobody from there has voted from holds nobody: its noise is not needed.
  const release = cellsOf(table, group.country) ? await tables.drawAndKeepNoise(table) : null;
  return groupBreakdown(question, table, release, group, everyAge ? null : agesOf(bands), k);
}

/** Everyone is exact, and counts every vote so far, not only those the release has reached. */
function everyoneBreakdown(question: ExploredQuestion, buckets: Buckets): FilteredBreakdown {
  const { kind } = question;
  const overall = buildResult(kind, new Map(question.votes));
  const everyone = publicCounts(kind, buckets, new Map(question.votes));
  const group = { counts: everyone, variance: 0 };
  return {
    overall,
    ages: null,
    everyone,
    buckets,
    result: overall,
    comparison: compareWithEveryone(kind, question.labels, buckets, group, new Map(question.votes)),
    privacy: { exact: true, counted: question.vote_count, count_sd: 0 },
    group,
  };
}

/** A group's breakdown from the table and the release's noise in it (none read when the group's country has no voters). */
function groupBreakdown(
  question: ExploredQuestion,
  table: SegmentTable,
  release: ReleasedNoise | null,
  group: Group,
  ages: AgeBand | null,
  k: number,
): FilteredBreakdown {
  const { kind } = question;
  const { buckets } = table;
  const overall = buildResult(kind, table.votes);
  const base = { overall, ages, everyone: publicCounts(kind, buckets, table.votes), buckets };
  const counts = release && releasedCounts(table, release, group);
  // A country nobody from there has voted from holds nobody: the countries with voters are public (breakdownFilters).
  if (!counts)
    return { ...base, result: suppressedResult(), comparison: null, privacy: privacyOf(table, 0), group: null };
  const countSd = countSdOf(counts);
  const privacy = privacyOf(table, countSd);
  if (!mayShow(totalOf(counts.counts), countSd, k))
    return { ...base, result: suppressedResult(), comparison: null, privacy, group: null };
  return {
    ...base,
    result: bucketResult(kind, buckets, counts.counts),
    comparison: compareWithEveryone(kind, question.labels, buckets, counts, table.votes),
    privacy,
    group: counts,
  };
}

function privacyOf(table: SegmentTable, countSd: number): BreakdownPrivacy {
  return { exact: false, counted: table.counted, count_sd: roundTo2(countSd) };
}

/** What the breakdown page opens with: the filters it offers, and each attribute's whole split. */
export async function breakdownOverview(
  db: Db,
  tables: SegmentTables,
  question: ExploredQuestion,
  k: number,
): Promise<{ filters: BreakdownFilters; splits: BreakdownSplits }> {
  const filters = await breakdownFilters(db, question);
  const names = await db
    .selectFrom('countries')
    .select(['id', 'name'])
    .where('id', 'in', filters.country.length > 0 ? filters.country : [0])
    .execute();
  const table = await tables.current(question);
  const release = await tables.drawAndKeepNoise(table);
  const countryNames = new Map(names.map((row) => [row.id, row.name]));
  return { filters, splits: breakdownSplits(question, table, release, filters, countryNames, k) };
}

/**
 * Each attribute's whole split at once, from the release (so it spends nothing more): both
 * genders, each age band from the youngest voter's to the oldest's, and each country with
 * voters, by name, as the filters offer them.
 */
function breakdownSplits(
  question: ExploredQuestion,
  table: SegmentTable,
  release: ReleasedNoise,
  filters: BreakdownFilters,
  countryNames: ReadonlyMap<number, string>,
  k: number,
): BreakdownSplits {
  const { kind, labels } = question;
  const splitOf = (label: string, group: Group, filter: SplitGroup['filter']): SplitGroup => ({
    ...releasedGroupOf(kind, labels, table.buckets, label, releasedCounts(table, release, group), k),
    filter,
  });
  const voterBands =
    filters.country.length > 0 ? bandsTouched(filters.age.min, filters.age.max) : { first: 0, last: -1 };
  return {
    gender: GENDER_FILTERS.map(({ value, label }, index) =>
      splitOf(label, { genders: [index], bands: EVERY_BAND, country: null }, { gender: value }),
    ),
    age: AGE_BANDS.flatMap((band, index) =>
      index >= voterBands.first && index <= voterBands.last
        ? [
            splitOf(
              describeBand(band),
              { genders: EVERY_GENDER, bands: { first: index, last: index }, country: null },
              { min_age: band.min, max_age: Math.min(band.max, AGE_FILTER_DEFAULTS.max) },
            ),
          ]
        : [],
    ),
    country: [...filters.country]
      .sort((a, b) => (countryNames.get(a) ?? '').localeCompare(countryNames.get(b) ?? ''))
      .map((id) =>
        splitOf(
          countryNames.get(id) ?? `Country ${id}`,
          { genders: EVERY_GENDER, bands: EVERY_BAND, country: id },
          { country: id },
        ),
      ),
  };
}

function describeBand(band: AgeBand): string {
  if (band.min === 0) return `Under ${band.max + 1}`;
  return band.max >= AGE_BANDS[AGE_BANDS.length - 1].max ? `${band.min} and over` : `${band.min}–${band.max}`;
}

function describeAges(ages: AgeBand): string {
  return ages.max >= AGE_BANDS[AGE_BANDS.length - 1].max ? `ages ${ages.min} and over` : `ages ${ages.min}-${ages.max}`;
}

/** A filtered breakdown as a CSV file: one line per answer, the group beside everyone. */
export async function breakdownCsv(
  db: Db,
  tables: SegmentTables,
  question: ExploredQuestion,
  query: BreakdownQuery,
  k: number,
): Promise<{ filename: string; csv: string }> {
  const breakdown = await filteredBreakdown(tables, question, query, k);
  const country =
    query.country === null
      ? null
      : await db.selectFrom('countries').select('name').where('id', '=', query.country).executeTakeFirst();
  const filter =
    [
      query.gender === 'F' ? 'women' : query.gender === 'M' ? 'men' : null,
      breakdown.ages && describeAges(breakdown.ages),
      country?.name ?? query.country,
    ]
      .filter((part) => part !== null)
      .join(', ') || 'everyone';
  const lines = groupLines([question.id, question.title, filter], {
    kind: question.kind,
    answers: bucketLabels(question.kind, question.labels, breakdown.buckets),
    buckets: breakdown.buckets,
    group: breakdown.group,
    everyone: breakdown.everyone,
    everyoneAverage: breakdown.overall.average ?? null,
    comparison: breakdown.comparison,
  });
  return {
    filename: `${displayId('QID', question.id)}-breakdown.csv`,
    csv: toCsv(['question_id', 'question', 'filter', ...GROUP_COLUMNS], lines),
  };
}
