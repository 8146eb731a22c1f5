import { AGE_FILTER_DEFAULTS, type BreakdownFilters, type Comparison, type Gender, type Result } from '@pollscope/contract';
import type { Db } from '../../db/index.js';
import type { QuestionRow } from '../../db/schema.js';
import { choiceLabels, questionKind } from '../../views/questions.js';
import { buildResult, percentages, roundTo2, type QuestionKind } from '../../views/results.js';
import { AGE_BANDS, ageInYear, agesOf, bandOf, bandsTouched, currentYear, type AgeBand } from './ages.js';
import { breakdownShown, emptyCounts, GENDERS, inBox, type Box, type VoterCounts } from './disclosure.js';
import { meanMargin, proportionMargin, twoProportionPValue, welchPValue, type Sample } from './stats.js';

export interface BreakdownQuery {
  minAge: number;
  maxAge: number;
  gender: Gender | null;
  country: number | null;
}

/** Votes per choice. */
export type Counts = Map<number, number>;

/** What a group too small to show gets instead of its result. */
export function suppressedResult(): Result {
  return { count: 0, answers: [], suppressed: true };
}

export function totalOf(counts: Counts): number {
  let total = 0;
  for (const count of counts.values()) total += count;
  return total;
}

function add(counts: Counts, choice: number, count: number): void {
  counts.set(choice, (counts.get(choice) ?? 0) + count);
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
export async function breakdownFilters(db: Db, questionId: number, year = currentYear()): Promise<BreakdownFilters> {
  const [span, countries] = await Promise.all([
    db
      .selectFrom('vote_age_segments')
      .select((eb) => [eb.fn.min('birth_year').as('earliest'), eb.fn.max('birth_year').as('latest')])
      .where('question_id', '=', questionId)
      .executeTakeFirst(),
    db.selectFrom('vote_country_tallies').select('country_id').where('question_id', '=', questionId).where('count', '>', 0).orderBy('country_id').execute(),
  ]);
  const age =
    span?.earliest == null || span.latest == null
      ? { ...AGE_FILTER_DEFAULTS }
      : { min: ageInYear(Number(span.latest), year), max: ageInYear(Number(span.earliest), year) };
  return { gender: GENDER_FILTERS, age, country: countries.map((row) => row.country_id) };
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

interface SegmentRow {
  gender: Gender;
  birth_year: number;
  choice: number;
  count: number;
}

/** Voters per gender and band from tallies by gender and birth year. */
function votersOf(rows: { gender: Gender; birth_year: number; count: number }[], year: number): VoterCounts {
  const counts = emptyCounts();
  for (const row of rows) counts[GENDERS.indexOf(row.gender)][bandOf(ageInYear(row.birth_year, year))] += Number(row.count);
  return counts;
}

/**
 * The other countries whose boxes the group must be checked against (disclosure.ts): those that
 * hold all but fewer than k of the group, or of the voters outside it. Only a country with more
 * voters than that can; the group's voters are counted in those only.
 */
async function countriesToCheck(trx: Db, questionId: number, group: Box, size: number, everyone: number, k: number, year: number): Promise<number[]> {
  const outside = everyone - size;
  const query = trx
    .selectFrom('vote_country_tallies')
    .select(['country_id', 'count'])
    .where('question_id', '=', questionId)
    .where('count', '>', (group.country === null ? Math.min(size, outside) : outside) - k);
  if (group.country !== null) return (await query.where('country_id', '<>', group.country).execute()).map((row) => row.country_id);
  const large = await query.execute();
  if (large.length === 0) return [];
  const ages = agesOf(group.bands);
  const shares = await trx
    .selectFrom('vote_segments')
    .select(['country_id', (eb) => eb.fn.sum<number>('count').as('voters')])
    .where('question_id', '=', questionId)
    .where(
      'country_id',
      'in',
      large.map((row) => row.country_id),
    )
    .where('gender', 'in', group.gender === null ? [...GENDERS] : [group.gender])
    .where('birth_year', '>=', year - ages.max)
    .where('birth_year', '<=', year - ages.min)
    .groupBy('country_id')
    .execute();
  const inGroup = new Map(shares.map((row) => [row.country_id, Number(row.voters)]));
  return large
    .filter((row) => {
      const share = inGroup.get(row.country_id) ?? 0;
      return share > size - k || row.count - share > outside - k;
    })
    .map((row) => row.country_id);
}

async function countryVoters(trx: Db, questionId: number, countries: number[], year: number): Promise<Map<number, VoterCounts>> {
  if (countries.length === 0) return new Map();
  const rows = await trx
    .selectFrom('vote_segments')
    .select(['country_id', 'gender', 'birth_year', (eb) => eb.fn.sum<number>('count').as('count')])
    .where('question_id', '=', questionId)
    .where('country_id', 'in', countries)
    .groupBy(['country_id', 'gender', 'birth_year'])
    .execute();
  return new Map(countries.map((country) => [country, votersOf(rows.filter((row) => row.country_id === country), year)]));
}

/**
 * A question's result among the voters a filter matches, beside everyone's, from the tallies
 * every vote keeps, read in one snapshot. The group's result is suppressed when showing it could
 * reveal how someone voted (disclosure.ts).
 */
export async function filteredBreakdown(db: Db, question: QuestionRow, query: BreakdownQuery, k: number, year = currentYear()): Promise<FilteredBreakdown> {
  const bands = bandsTouched(query.minAge, query.maxAge);
  const group: Box = { gender: query.gender, bands, country: query.country };
  const snapshot = await db
    .transaction()
    .setIsolationLevel('repeatable read')
    .execute(async (trx) => {
      const overallRows = await trx.selectFrom('vote_tallies').select(['choice', 'count']).where('question_id', '=', question.id).execute();
      const everyRow: SegmentRow[] = await trx
        .selectFrom('vote_age_segments')
        .select(['gender', 'birth_year', 'choice', 'count'])
        .where('question_id', '=', question.id)
        .execute();
      const countryRows: SegmentRow[] =
        query.country === null
          ? everyRow
          : await trx
              .selectFrom('vote_segments')
              .select(['gender', 'birth_year', 'choice', 'count'])
              .where('question_id', '=', question.id)
              .where('country_id', '=', query.country)
              .execute();
      const overallVotes: Counts = new Map(overallRows.map((row) => [row.choice, row.count]));
      const groupVotes: Counts = new Map();
      for (const row of countryRows) if (inBox(group, row.gender, bandOf(ageInYear(row.birth_year, year)))) add(groupVotes, row.choice, row.count);
      const population = new Map<number | null, VoterCounts>([[null, votersOf(everyRow, year)]]);
      if (query.country !== null) population.set(query.country, votersOf(countryRows, year));
      const size = totalOf(groupVotes);
      const everyone = totalOf(overallVotes);
      // Only a group of at least k that leaves out at least k could be shown: only then are the countries to check worth finding.
      if (size >= k && everyone - size >= k) {
        const countries = await countriesToCheck(trx, question.id, group, size, everyone, k, year);
        for (const [country, voters] of await countryVoters(trx, question.id, countries, year)) population.set(country, voters);
      }
      return { overallVotes, groupVotes, shown: breakdownShown(group, population, everyone, k) };
    });

  const kind = questionKind(question);
  const overall = buildResult(kind, snapshot.overallVotes);
  const everyAge = bands.first === 0 && bands.last === AGE_BANDS.length - 1;
  const ages = everyAge ? null : agesOf(bands);
  if (!snapshot.shown) return { result: suppressedResult(), overall, comparison: null, ages, groupVotes: null, overallVotes: snapshot.overallVotes };
  return {
    result: buildResult(kind, snapshot.groupVotes),
    overall,
    comparison: compareWithEveryone(kind, choiceLabels(question), snapshot.groupVotes, snapshot.overallVotes),
    ages,
    groupVotes: snapshot.groupVotes,
    overallVotes: snapshot.overallVotes,
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
