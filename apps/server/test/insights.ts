import { answerBodySchema, api, questionSchema } from '@pollscope/contract';
import { expect } from 'vitest';
import type { ZodType } from 'zod';
import { CryptoRandom } from '../src/private-release/discrete-noise.js';
import { runningNoise, runningVariance } from '../src/private-release/factorization.js';
import { countVariance, estimate, precisions } from '../src/private-release/marginals.js';
import { signUp, type TestContext, type TestUser } from '../src/test/helper.js';
import type { QuestionKind } from '../src/views/results.js';
import type { Voter } from '../src/views/viewer-states.js';
import { recordVotes, type NewVote } from '../src/modules/polls/index.js';
import { AGE_BANDS, bandOf, currentYear, type AgeBand } from '../src/modules/insights/ages.js';
import { mayShow, nonNegative } from '../src/modules/insights/released-groups.js';
import { bucketsOf } from '../src/modules/insights/buckets.js';
import { countryCell, GENDERS, tableCell } from '../src/private-release/breakdown-cells.js';
import { searchName } from '../src/lib/search-text.js';

export const US = 840;
export const FRANCE = 250;
export const JAPAN = 392;
export const BRAZIL = 76;
export const GERMANY = 276;
export const INDIA = 356;

export interface Person {
  gender: 'F' | 'M';
  /** The age reached this year. */
  age: number;
  country: number;
}

/** Registers someone who reaches `age` this year: born on 1 January, so their age today is that too. */
export function signUpAs(ctx: TestContext, person: Person): Promise<TestUser> {
  return signUp(ctx, {
    gender: person.gender,
    birthDate: `${currentYear() - person.age}-01-01`,
    livingIn: person.country,
  });
}

/** `count` people alike. */
export function many(count: number, person: Person): Person[] {
  return Array.from({ length: count }, () => ({ ...person }));
}

/** Each person answers the question with the choice given for them (by index, cycling). */
export async function answerAll(voters: TestUser[], questionId: number, choices: number[]): Promise<void> {
  for (const [index, voter] of voters.entries()) {
    await voter.api.post(
      api.answer(questionId),
      answerBodySchema,
      { choice: choices[index % choices.length] },
      questionSchema,
    );
  }
}

/** A seeded pseudo-random source (mulberry32): the same seed gives the same community every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = Math.imul(state ^ (state >>> 15), state | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * Noise for breakdown's and relate's releases from a seed rather than node:crypto: a test that
 * asserts what one draw shows (a difference the noise could hide one time in a hundred) then sees
 * the same draw every run.
 */
export function seededNoise(seed: number): CryptoRandom {
  const random = seededRandom(seed);
  return new CryptoRandom((words) => {
    for (let index = 0; index < words.length; index += 1) words[index] = Math.floor(random() * 2 ** 32);
  });
}

function daysIntoYear(now = new Date()): number {
  return Math.floor((now.getTime() - Date.UTC(now.getUTCFullYear(), 0, 1)) / 86_400_000);
}

export interface GeneratedVoter extends Person {
  user: TestUser;
}

/**
 * `size` people of random gender, age (15 to 89 this year, more of them young) and country (the
 * first of `countries` the most common, each next one about half as common), registered through
 * the API with a random birth date in their birth year.
 */
export async function generateCommunity(
  ctx: TestContext,
  random: () => number,
  size: number,
  countries: number[],
): Promise<GeneratedVoter[]> {
  const weights = countries.map((_, index) => 2 ** -index);
  const totalWeight = weights.reduce((sum, weight) => sum + weight, 0);
  const countryOf = (draw: number) => {
    let left = draw * totalWeight;
    return countries.find((_, index) => (left -= weights[index]) < 0) ?? countries[countries.length - 1];
  };
  const voters: GeneratedVoter[] = [];
  for (let index = 0; index < size; index += 1) {
    const person: Person = {
      gender: random() < 0.5 ? 'F' : 'M',
      age: 15 + Math.floor(random() ** 1.5 * 75),
      country: countryOf(random()),
    };
    // A birthday no later in the year than today, so that they are that age already.
    const birthday = new Date(Date.UTC(currentYear() - person.age, 0, 1 + Math.floor(random() * (daysIntoYear() + 1))));
    const user = await signUp(ctx, {
      gender: person.gender,
      birthDate: birthday.toISOString().slice(0, 10),
      livingIn: person.country,
    });
    voters.push({ ...person, user });
  }
  return voters;
}

/** The fields of each line of a CSV download (RFC 4180: quoted fields, doubled quotes, CRLF line ends). */
export function parseCsv(text: string): string[][] {
  const lines: string[][] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted && char === '"' && text[index + 1] === '"') {
      field += '"';
      index += 1;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      fields.push(field);
      field = '';
    } else if (!quoted && char === '\r' && text[index + 1] === '\n') {
      lines.push([...fields, field]);
      fields = [];
      field = '';
      index += 1;
    } else {
      field += char;
    }
  }
  return lines;
}

/** The lines of a CSV download after its header, each as its fields by column name. */
export function csvRecords(text: string): Record<string, string>[] {
  const [header, ...lines] = parseCsv(text);
  return lines.map((line) => Object.fromEntries(header.map((name, index) => [name, line[index]])));
}

/** A download's `noise_sd` of one answer: the standard deviation of the noise in its count, to hundredths. */
export function answerNoiseSd(answerSd: number): string {
  return String(Math.round(answerSd * 100) / 100);
}

/**
 * Parsing with a response's schema keeps only the fields it declares: nothing is left out only if nothing undeclared
 * was sent.
 */
export function expectOnlyDeclared(schema: ZodType, body: unknown): void {
  expect(schema.parse(body)).toEqual(body);
}

/** A filter as the query string of a download. */
export function queryString(filter: Record<string, string | number>): string {
  return new URLSearchParams(Object.entries(filter).map(([name, value]) => [name, String(value)])).toString();
}

/** Votes per answer, by the answer's label in a download. */
export type LabelledVotes = Record<string, number>;

export interface DownloadGroup {
  votes: LabelledVotes;
  everyone: LabelledVotes;
}

/**
 * The groups of a CSV download by the value of `labelColumn` (one group, labelled '', when null),
 * in order: their votes and everyone's per answer, or null for a group too few voters match.
 */
export function downloadGroups(text: string, labelColumn: string | null): Map<string, DownloadGroup | null> {
  const [header, ...lines] = parseCsv(text);
  const column = (name: string) => header.indexOf(name);
  const groups = new Map<string, DownloadGroup | null>();
  for (const line of lines) {
    const label = labelColumn === null ? '' : line[column(labelColumn)];
    if (line[column('note')] !== '') {
      groups.set(label, null);
      continue;
    }
    const answer = line[column('answer')];
    if (answer === 'average') continue;
    const group = groups.get(label) ?? { votes: {}, everyone: {} };
    group.votes[answer] = Number(line[column('votes')]);
    group.everyone[answer] = Number(line[column('everyone_votes')]);
    groups.set(label, group);
  }
  return groups;
}

let made = 0;

/**
 * People written straight into the database, for communities too large to register one by one
 * through the API: they vote (castVotes) but cannot sign in.
 */
export async function createPeople(ctx: TestContext, people: Person[]): Promise<Voter[]> {
  const voters: Voter[] = [];
  const year = currentYear();
  for (let start = 0; start < people.length; start += 500) {
    const rows = people.slice(start, start + 500).map((person) => {
      made += 1;
      const birthYear = year - person.age;
      return {
        email: `made${made}-${Date.now()}@example.com`,
        password_hash: 'none',
        first_name: `Voter ${made}`,
        search_name: searchName(`Voter ${made}`),
        birthdate: `${birthYear}-01-01`,
        birth_year: birthYear,
        gender: person.gender,
        country_id: person.country,
        created_at: new Date().toISOString(),
      };
    });
    const ids = await ctx.database.db.insertInto('users').values(rows).returning('id').execute();
    ids.forEach(({ id }, index) =>
      voters.push({
        id,
        gender: rows[index].gender,
        birth_year: rows[index].birth_year,
        country_id: rows[index].country_id,
      }),
    );
  }
  return voters;
}

/** Votes written as the vote writer writes its batches, through the one path of every change. */
export async function castVotes(ctx: TestContext, votes: NewVote[]): Promise<void> {
  for (let start = 0; start < votes.length; start += 1_000) {
    await ctx.app.changes.commit((trx) => recordVotes(trx, votes.slice(start, start + 1_000)));
  }
}

/**
 * Multiple-choice questions written straight into the database, for tests that need hundreds,
 * counted among their author's questions as asking counts them.
 */
export async function createQuestions(
  ctx: TestContext,
  author: TestUser,
  titles: string[],
  choices: string[],
  published = new Date(),
): Promise<number[]> {
  const { db } = ctx.database;
  const publishedAt = published.toISOString();
  const rows = await db
    .insertInto('questions')
    .values(
      titles.map((title) => ({
        user_id: author.id,
        type: 'MC' as const,
        title,
        choice_labels: JSON.stringify(choices),
        published_at: publishedAt,
      })),
    )
    .returning('id')
    .execute();
  await db
    .updateTable('users')
    .set((eb) => ({ question_count: eb('question_count', '+', titles.length) }))
    .where('id', '=', author.id)
    .execute();
  return rows.map((row) => row.id);
}

/** An epoch's measured tables as `breakdown_epochs` and `epoch_noise` keep them, read straight from the database. */
async function epochTables(
  ctx: TestContext,
  release: { questionId: number; otherId: number; epoch: number },
  tables: { mask: number; variance: number }[],
  sizes: number[],
) {
  const rows = await ctx.database.db
    .selectFrom('epoch_noise')
    .select(['cell', 'noise'])
    .where('question_id', '=', release.questionId)
    .where('other_id', '=', release.otherId)
    .where('epoch', '=', release.epoch)
    .orderBy('cell')
    .execute();
  const cellsOf = (mask: number) => sizes.reduce((cells, size, i) => (mask & (1 << i) ? cells * size : cells), 1);
  // Every cell of every table of an epoch is drawn by the time anything of it is shown.
  expect(rows).toHaveLength(tables.reduce((sum, { mask }) => sum + cellsOf(mask), 0));
  let offset = 0;
  return tables.map(({ mask, variance }) => {
    const values = rows.slice(offset, (offset += cellsOf(mask))).map((row) => row.noise);
    return { mask, variance, values };
  });
}

/**
 * One table's noise in one epoch of a breakdown stream, read straight from `epoch_noise`: a cell is
 * kept under its table's place × 2²⁰, its answer, gender and band × 2¹⁰, and its country's id.
 */
async function streamTable(
  ctx: TestContext,
  questionId: number,
  epoch: number,
  table: number,
  mask: number,
  sizes: number[],
  countries: number[],
): Promise<number[]> {
  const rows = await ctx.database.db
    .selectFrom('epoch_noise')
    .select(['cell', 'noise'])
    .where('question_id', '=', questionId)
    .where('other_id', '=', 0)
    .where('epoch', '=', epoch)
    .execute();
  const noiseOf = new Map(rows.map((row) => [row.cell, row.noise]));
  const inner = sizes.slice(0, 3).reduce((cells, size, i) => (mask & (1 << i) ? cells * size : cells), 1);
  const values: number[] = [];
  for (let index = 0; index < inner; index += 1)
    for (const country of mask & 8 ? countries : [0]) {
      const noise = noiseOf.get(table * 2 ** 20 + index * 2 ** 10 + country);
      // Every cell of every table of an epoch is drawn by the time anything of it is shown.
      expect(noise).toBeDefined();
      values.push(noise!);
    }
  return values;
}

/**
 * Exact counts plus the release's noise as shown: made whole and never negative, with the noise's sds and whether the
 * rule shows them.
 */
function asShown(ctx: TestContext, exact: number[], noise: number[], countVariance: number, answerVariance: number) {
  const released = nonNegative(exact.map((count, bucket) => count + noise[bucket]));
  const countSd = Math.sqrt(countVariance);
  const shown = mayShow(
    released.reduce((sum, count) => sum + count, 0),
    countSd,
    ctx.config.minGroupSize,
  );
  return { released, countSd, answerSd: Math.sqrt(answerVariance), shown };
}

export interface ReleasedGroup {
  /** The votes the release counts. */
  counted: number;
  /**
   * The group's votes per bucket, exact and as released (exact plus the estimate's noise, made whole and never
   * negative).
   */
  exact: number[];
  released: number[];
  /** The standard deviation of the noise in the group's count, and in its count of one answer. */
  countSd: number;
  answerSd: number;
  /** Whether the release's rule shows the group. */
  shown: boolean;
}

/**
 * What a breakdown release holds for a group, worked out apart from the code that serves it: the
 * epochs read straight from `breakdown_epochs`, the votes counted straight from the votes table,
 * each epoch's noise read straight from `epoch_noise` and fitted by the mechanism's least squares.
 */
export async function releasedGroup(
  ctx: TestContext,
  question: { id: number; kind: QuestionKind },
  group: { gender?: 'F' | 'M'; country?: number; ages: AgeBand | null },
): Promise<ReleasedGroup> {
  const { db } = ctx.database;
  const row = await db
    .selectFrom('questions')
    .select(['published_at'])
    .where('id', '=', question.id)
    .executeTakeFirstOrThrow();
  const epochs = await db
    .selectFrom('breakdown_epochs')
    .selectAll()
    .where('question_id', '=', question.id)
    .orderBy('epoch')
    .execute();
  const counted = epochs.at(-1)?.counted ?? 0;
  const year = new Date(row.published_at).getUTCFullYear();
  const buckets = bucketsOf(question.kind);
  const ages = group.ages ?? { min: 0, max: 999 };
  const [first, last] = [bandOf(ages.min), bandOf(ages.max)];
  const genders = group.gender ? [GENDERS.indexOf(group.gender)] : [0, 1];
  let query = db
    .selectFrom('votes')
    .select(['gender', 'birth_year', 'choice'])
    .where('question_id', '=', question.id)
    .where('seq', '<=', counted);
  if (group.country) query = query.where('country_id', '=', group.country);
  const exact = new Array<number>(buckets.count).fill(0);
  for (const vote of await query.execute()) {
    const band = bandOf(year - vote.birth_year);
    if (genders.includes(GENDERS.indexOf(vote.gender)) && band >= first && band <= last)
      exact[buckets.of(vote.choice)] += 1;
  }
  if (!group.gender && !group.country && first === 0 && last === AGE_BANDS.length - 1)
    return { counted, exact, released: exact, countSd: 0, answerSd: 0, shown: true };
  // Every epoch of a question released now is one of the factorized stream, decoded together.
  expect(epochs.every((epoch) => epoch.factorized === 1 && epoch.legacy === 0)).toBe(true);
  const countries = [...new Set(epochs.flatMap((epoch) => JSON.parse(epoch.countries) as number[]))].sort(
    (a, b) => a - b,
  );
  const sizes = [buckets.count, GENDERS.length, AGE_BANDS.length, countries.length];
  const epochTablesOf = epochs.map((epoch) =>
    (JSON.parse(epoch.tables) as { mask: number; num: string; den: string }[]).map(({ mask, num, den }) => ({
      mask,
      variance: Number(num) / Number(den),
    })),
  );
  const measurements = await Promise.all(
    epochTablesOf[0].map(async ({ mask }, table) => {
      const releases = await Promise.all(
        epochs.map((epoch) => streamTable(ctx, question.id, epoch.epoch, table, mask, sizes, countries)),
      );
      return {
        mask,
        values: runningNoise(releases, releases[0].length),
        variance: runningVariance(epochTablesOf.map((tables) => tables[table].variance)),
      };
    }),
  );
  // Public, and so held exact: voters by age band × country (mask 12), and a rating's or number's answers (mask 1).
  const exactMasks = question.kind.type === 'MC' ? [12] : [1, 12];
  const fitted = estimate(
    sizes,
    measurements,
    exactMasks.map((mask) => ({
      mask,
      values: new Array<number>(sizes.reduce((cells, size, i) => (mask & (1 << i) ? cells * size : cells), 1)).fill(0),
    })),
  );
  const inCountries = group.country
    ? countries.flatMap((country, index) => (country === group.country ? [index] : []))
    : countries.map((_, index) => index);
  const noise = new Array<number>(buckets.count).fill(0);
  for (let bucket = 0; bucket < buckets.count; bucket += 1) {
    for (const gender of genders)
      for (let band = first; band <= last; band += 1)
        for (const c of inCountries)
          noise[bucket] += fitted[countryCell(tableCell(bucket, gender, band), countries.length, c)];
  }
  let countVarianceSum = 0;
  let answerVarianceSum = 0;
  if (inCountries.length > 0) {
    const lambda = precisions(sizes, measurements);
    const chosen = (answers: number) => [answers, genders.length, last - first + 1, inCountries.length];
    countVarianceSum = countVariance(sizes, lambda, exactMasks, chosen(buckets.count));
    answerVarianceSum = countVariance(sizes, lambda, exactMasks, chosen(1));
  }
  return { counted, exact, ...asShown(ctx, exact, noise, countVarianceSum, answerVarianceSum) };
}

/**
 * What a pair's relate release holds for the voters of one choice of the second question, worked
 * out apart from the code that serves it: the epochs from `relate_releases`, the voters counted
 * from the votes table, and the noise from `epoch_noise`: an epoch released alone fitted to its
 * people, and the factorized stream's tables decoded over its epochs and fitted to theirs.
 */
export async function releasedRow(
  ctx: TestContext,
  first: { id: number; kind: QuestionKind },
  second: { id: number; kind: QuestionKind },
  choice: number,
): Promise<{
  firstCounted: number;
  secondCounted: number;
  exact: number[];
  released: number[];
  countSd: number;
  answerSd: number;
  shown: boolean;
}> {
  const { db } = ctx.database;
  const [low, high] = first.id < second.id ? [first, second] : [second, first];
  const epochs = await db
    .selectFrom('relate_releases')
    .selectAll()
    .where('low_id', '=', low.id)
    .where('high_id', '=', high.id)
    .orderBy('epoch')
    .execute();
  const latest = epochs.at(-1)!;
  const counted = (id: number) => (id === low.id ? latest.low_counted : latest.high_counted);
  const [buckets, lowBuckets, highBuckets] = [bucketsOf(first.kind), bucketsOf(low.kind), bucketsOf(high.kind)];
  const votes = await db
    .selectFrom('votes as f')
    .innerJoin('votes as s', (join) => join.onRef('s.user_id', '=', 'f.user_id').on('s.question_id', '=', second.id))
    .select('f.choice')
    .where('f.question_id', '=', first.id)
    .where('f.seq', '<=', counted(first.id))
    .where('s.seq', '<=', counted(second.id))
    .where('s.choice', '=', choice)
    .execute();
  const exact = new Array<number>(buckets.count).fill(0);
  for (const vote of votes) exact[buckets.of(vote.choice)] += 1;
  const secondBucket = bucketsOf(second.kind).of(choice);
  const sizes = [lowBuckets.count, highBuckets.count];
  const release = { questionId: low.id, otherId: high.id };
  const counting = epochs.filter((epoch) => epoch.low_counted > 0 || epoch.high_counted > 0);
  // Each epoch released alone is a part of the noise; the stream's epochs, decoded together, are one more.
  const parts: { mask: number; variance: number; values: ArrayLike<number> }[][] = [];
  for (const epoch of counting.filter((epoch) => epoch.tables === null)) {
    expect(epoch.variance).not.toBeNull();
    parts.push(
      await epochTables(ctx, { ...release, epoch: epoch.epoch }, [{ mask: 3, variance: epoch.variance! }], sizes),
    );
  }
  const stream = counting
    .filter((epoch) => epoch.tables !== null)
    .map((epoch) => ({
      epoch: epoch.epoch,
      tables: (JSON.parse(epoch.tables!) as { mask: number; num: string; den: string }[]).map(({ mask, num, den }) => ({
        mask,
        variance: Number(num) / Number(den),
      })),
    }));
  if (stream.length > 0) {
    const releases = await Promise.all(
      stream.map((epoch) => epochTables(ctx, { ...release, epoch: epoch.epoch }, epoch.tables, sizes)),
    );
    parts.push(
      stream[0].tables.map(({ mask }, table) => ({
        mask,
        values: runningNoise(
          releases.map((measurements) => measurements[table].values),
          releases[0][table].values.length,
        ),
        variance: runningVariance(stream.map((epoch) => epoch.tables[table].variance)),
      })),
    );
  }
  const noise = new Array<number>(buckets.count).fill(0);
  let countVarianceSum = 0;
  let answerVarianceSum = 0;
  for (const measurements of parts) {
    const fitted = estimate(sizes, measurements, [{ mask: 0, values: [0] }]);
    exact.forEach(
      (_, bucket) =>
        (noise[bucket] +=
          fitted[
            first.id === low.id ? bucket * highBuckets.count + secondBucket : secondBucket * highBuckets.count + bucket
          ]),
    );
    const lambda = precisions(sizes, measurements);
    countVarianceSum += countVariance(
      sizes,
      lambda,
      [0],
      first.id === low.id ? [lowBuckets.count, 1] : [1, highBuckets.count],
    );
    answerVarianceSum += countVariance(sizes, lambda, [0], [1, 1]);
  }
  return {
    firstCounted: counted(first.id),
    secondCounted: counted(second.id),
    exact,
    ...asShown(ctx, exact, noise, countVarianceSum, answerVarianceSum),
  };
}
