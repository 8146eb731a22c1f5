import { AGE_FILTER_DEFAULTS, type BreakdownFilters, type Comparison, type Gender, type Result } from '@pollscope/contract';
import type { ExploredQuestion } from './access.js';
import { buildResult, percentages, roundTo2, type QuestionKind } from '../../views/results.js';
import { AGE_BANDS, ageInYear, agesOf, bandOf, bandsTouched, currentYear, type AgeBand } from './ages.js';
import { addCount, type Counts } from './counts.js';
import { breakdownShown, emptyCounts, GENDERS, inBox, type Box, type VoterCounts } from './disclosure.js';
import type { CountedQuestion, Segment, Segments, SegmentTable, SegmentTables } from './segment-tables.js';
import { meanMargin, proportionMargin, twoProportionPValue, welchPValue, type Sample } from './stats.js';

export interface BreakdownQuery {
  minAge: number;
  maxAge: number;
  gender: Gender | null;
  country: number | null;
}

/** What a group too small to show gets instead of its result. */
export function suppressedResult(): Result {
  return { count: 0, answers: [], suppressed: true };
}

export function totalOf(counts: Counts): number {
  let total = 0;
  for (const count of counts.values()) total += count;
  return total;
}

/** The votes of `whole` that are not in `part`, per choice. */
export function remainder(whole: Counts, part: Counts): Counts {
  const rest: Counts = new Map();
  for (const [choice, count] of whole) rest.set(choice, count - (part.get(choice) ?? 0));
  return rest;
}

const GENDER_FILTERS: BreakdownFilters['gender'] = [
  { value: 'F', label: 'Female' },
  { value: 'M', label: 'Male' },
];

/** The filters a question's breakdown offers: genders, its voters' age span, and their countries. */
export async function breakdownFilters(tables: SegmentTables, question: CountedQuestion, year = currentYear()): Promise<BreakdownFilters> {
  const table = await tables.current(question);
  const birthYears = [...table.everywhere.values()].map((segment) => segment.birthYear);
  const age = birthYears.length === 0 ? { ...AGE_FILTER_DEFAULTS } : { min: ageInYear(Math.max(...birthYears), year), max: ageInYear(Math.min(...birthYears), year) };
  return { gender: GENDER_FILTERS, age, country: [...table.countries.keys()].sort((a, b) => a - b) };
}

export interface FilteredBreakdown {
  /** The group's result, or a suppressed one when it may not be shown. */
  result: Result;
  overall: Result;
  comparison: Comparison | null;
  /** The ages the group covers, null for every age. */
  ages: AgeBand | null;
  /** The group's and everyone's votes per choice, for downloads (the group's only when shown). */
  groupVotes: Counts | null;
  overallVotes: Counts;
}

/** Voters per gender and band. */
function votersOf(segments: Segments, year: number): VoterCounts {
  const counts = emptyCounts();
  for (const segment of segments.values()) counts[GENDERS.indexOf(segment.gender)][bandOf(ageInYear(segment.birthYear, year))] += segment.voters;
  return counts;
}

/** Whether a segment's voters are in a box (whatever their country). */
function segmentIn(group: Box, segment: Segment, year: number): boolean {
  return inBox(group, segment.gender, bandOf(ageInYear(segment.birthYear, year)));
}

/**
 * The other countries whose boxes the group must be checked against (disclosure.ts): those that
 * hold all but fewer than k of the group, or of the voters outside it. Only a country with more
 * voters than that can; the group's voters are counted in those only.
 */
function countriesToCheck(table: SegmentTable, group: Box, size: number, everyone: number, k: number, year: number): number[] {
  const outside = everyone - size;
  const least = (group.country === null ? Math.min(size, outside) : outside) - k;
  const countries: number[] = [];
  for (const [country, { voters, segments }] of table.countries) {
    if (voters <= least || country === group.country) continue;
    if (group.country === null) {
      let share = 0;
      for (const segment of segments.values()) if (segmentIn(group, segment, year)) share += segment.voters;
      if (share <= size - k && voters - share <= outside - k) continue;
    }
    countries.push(country);
  }
  return countries;
}

/**
 * A question's result among the voters a filter matches, beside everyone's, from the question's
 * segment table as of the question row read in this request. The group's result is suppressed
 * when showing it could reveal how someone voted (disclosure.ts).
 */
export async function filteredBreakdown(tables: SegmentTables, question: ExploredQuestion, query: BreakdownQuery, k: number, year = currentYear()): Promise<FilteredBreakdown> {
  const bands = bandsTouched(query.minAge, query.maxAge);
  const group: Box = { gender: query.gender, bands, country: query.country };
  const table = await tables.current(question);
  // Counted from here on without waiting, so the table cannot move under them; everyone's votes
  // are copied, since a download reads them after waiting for the country's name.
  const overallVotes: Counts = new Map(table.votes);
  const segments = query.country === null ? table.everywhere : (table.countries.get(query.country)?.segments ?? new Map<number, Segment>());
  const groupVotes: Counts = new Map();
  for (const segment of segments.values()) if (segmentIn(group, segment, year)) for (const [choice, count] of segment.votes) addCount(groupVotes, choice, count);
  const population = new Map<number | null, VoterCounts>([[null, votersOf(table.everywhere, year)]]);
  if (query.country !== null) population.set(query.country, votersOf(segments, year));
  const size = totalOf(groupVotes);
  const everyone = totalOf(overallVotes);
  // Only a group of at least k that leaves out at least k could be shown: only then are the countries to check worth finding.
  if (size >= k && everyone - size >= k) {
    for (const country of countriesToCheck(table, group, size, everyone, k, year)) population.set(country, votersOf(table.countries.get(country)!.segments, year));
  }
  const shown = breakdownShown(group, population, everyone, k);

  const { kind } = question;
  const overall = buildResult(kind, overallVotes);
  const everyAge = bands.first === 0 && bands.last === AGE_BANDS.length - 1;
  const ages = everyAge ? null : agesOf(bands);
  if (!shown) return { result: suppressedResult(), overall, comparison: null, ages, groupVotes: null, overallVotes };
  return {
    result: buildResult(kind, groupVotes),
    overall,
    comparison: compareWithEveryone(kind, question.labels, groupVotes, overallVotes),
    ages,
    groupVotes,
    overallVotes,
  };
}

/** Size, mean and sample variance of the values voted, from the votes per value. */
export function sampleOf(votes: Counts): Sample {
  let n = 0;
  let sum = 0;
  for (const [value, count] of votes) {
    n += count;
    sum += value * count;
  }
  const mean = n > 0 ? sum / n : 0;
  let squares = 0;
  for (const [value, count] of votes) squares += count * (value - mean) ** 2;
  return { n, mean, variance: n > 1 ? squares / (n - 1) : 0 };
}

const SIGNIFICANCE = 0.05;

/**
 * Each filtered percentage with its 95% margin of error beside everyone's, or for a rating or
 * number the average. A difference is marked significant when the group differs from the other
 * voters (everyone outside the group) at the 95% level.
 */
export function compareWithEveryone(kind: QuestionKind, labels: string[], group: Counts, everyone: Counts): Comparison {
  const rest = remainder(everyone, group);
  if (kind.type === 'MC') {
    const groupCounts = kind.keys.map((key) => group.get(key) ?? 0);
    const everyoneCounts = kind.keys.map((key) => everyone.get(key) ?? 0);
    const groupPercents = percentages(groupCounts);
    const everyonePercents = percentages(everyoneCounts);
    const n = totalOf(group);
    const restN = totalOf(rest);
    return {
      rows: kind.keys.map((key, index) => ({
        key,
        label: labels[index] ?? String(key),
        percent: groupPercents[index],
        overall_percent: everyonePercents[index],
        margin: Math.round(proportionMargin(groupCounts[index], n) * 1000) / 10,
        significant: n > 0 && restN > 0 && twoProportionPValue(groupCounts[index], n, rest.get(key) ?? 0, restN) < SIGNIFICANCE,
      })),
      average: null,
    };
  }
  const groupSample = sampleOf(group);
  const everyoneSample = sampleOf(everyone);
  const restSample = sampleOf(rest);
  return {
    rows: [],
    average:
      groupSample.n === 0
        ? null
        : {
            value: roundTo2(groupSample.mean),
            overall: roundTo2(everyoneSample.mean),
            margin: roundTo2(meanMargin(groupSample)),
            significant: restSample.n > 0 && welchPValue(groupSample, restSample) < SIGNIFICANCE,
          },
  };
}
