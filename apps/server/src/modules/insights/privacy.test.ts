import { api, breakdownResultSchema, relateResultSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER, BAND, breakdownSizes, COUNTRY, GENDER } from '../../private-release/breakdown-design.js';
import { BREAKDOWN_RHO, RELATE_PAIR_RHO } from '../../private-release/budget.js';
import { FACTOR_NORM } from '../../private-release/factorization.js';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { exposedSets, type Members } from './attacker.js';
import { bandsTouched } from './ages.js';
import {
  FRANCE,
  JAPAN,
  many,
  queryString,
  releasedGroup,
  releasedRow,
  signUpAs,
  US,
  type Person,
} from '../../../test/insights.js';

/**
 * The differencing attack: someone who knows everyone's gender, age, country and answers to other
 * questions asks for every filter, downloads every CSV and relates the question to others, then
 * combines responses to single out how one person voted. With exact counts, pairs of filters give
 * a person's vote away. Against the private release every group narrower than everyone is
 * counted with noise, every response is a sum of the same kept noisy cells, and asking again
 * draws no new noise: what two responses leave after subtraction is the noise of the cells one
 * counts and the other does not.
 */

interface Voter extends Person {
  user: TestUser;
  first: number;
  second: number | null;
  third: number;
}

type Filter = { min_age?: number; max_age?: number; gender?: 'F' | 'M'; country?: number };

let ctx: TestContext;
let k: number;
let voters: Voter[];
let victim: number;
let youngest: number;
let first: number;
let skipped: number;
let rare: number;

/**
 * The least standard deviation a release of ρ-zCDP can leave in a count that one vote moves by 1,
 * however it is worked out from the release: noise of sd σ in such a count alone spends 1/(2σ²),
 * so σ ≥ 1/√(2ρ): 2 for a breakdown (ρ = 1/8), 5.66 for a relate pair (ρ = 1/64).
 */
const leastSd = (rho: number) => 1 / Math.sqrt(2 * rho);

/** People of several kinds in turn, one of each while they last, so that every kind votes early and late. */
function inTurn(...kinds: Person[][]): Person[] {
  const longest = Math.max(...kinds.map((kind) => kind.length));
  return Array.from({ length: longest }, (_, index) =>
    kinds.flatMap((kind) => (index < kind.length ? [kind[index]] : [])),
  ).flat();
}

// 16 women of 30 and 16 men of 40 in the US, 10 men of 70 in the US, 12 women of 60 in France,
// 8 women of 22 in Japan, in turn; then the youngest voter, the one woman of 20 in Japan, and
// the victim, the one man in France and the one voter aged 45 to 54. 64 voters: a release point,
// so the release counts every vote of the question attacked (the first 32 in its first epoch,
// every country among them, and the rest in its second).
beforeAll(async () => {
  ctx = await createTestApp();
  k = ctx.config.minGroupSize;
  const people: Person[] = [
    ...inTurn(
      many(16, { gender: 'F', age: 30, country: US }),
      many(16, { gender: 'M', age: 40, country: US }),
      many(10, { gender: 'M', age: 70, country: US }),
      many(12, { gender: 'F', age: 60, country: FRANCE }),
      many(8, { gender: 'F', age: 22, country: JAPAN }),
    ),
    { gender: 'F', age: 20, country: JAPAN },
    { gender: 'M', age: 50, country: FRANCE },
  ];
  youngest = people.length - 2;
  victim = people.length - 1;
  const users = await Promise.all(people.map((person) => signUpAs(ctx, person)));
  voters = people.map((person, index) => ({
    ...person,
    user: users[index],
    first: index === victim ? 2 : (index % 3) + 1,
    second: index === victim ? null : (index % 2) + 1,
    third: index === victim || index < 2 ? 3 : (Math.floor(index / 2) % 2) + 1,
  }));
  const author = await signUp(ctx);
  first = await ask(author, { question: 'Which way to work?', choices: ['Walk', 'Bike', 'Drive'] });
  skipped = await ask(author, { question: 'Early riser?', choices: ['Yes', 'No'] });
  rare = await ask(author, { question: 'Which season?', choices: ['Summer', 'Winter', 'Autumn'] });
  for (const voter of voters) {
    for (const [question, choice] of [
      [first, voter.first],
      [skipped, voter.second],
      [rare, voter.third],
    ] as const) {
      if (choice === null) continue;
      const reply = await voter.user.api.raw('POST', api.answer(question), { choice });
      expect(reply.status).toBe(200);
    }
  }
});
afterAll(() => ctx.close());

const attacker = () => voters[0].user;
const everyone = (): Members => voters.map((_, index) => index);
const kind = { type: 'MC' as const, keys: [1, 2, 3] };

function membersWhere(match: (voter: Voter) => boolean): Members {
  return voters.flatMap((voter, index) => (match(voter) ? [index] : []));
}

/** Naive filters, counting exact ages, with nothing suppressed. */
const naive = (filter: Filter): Members =>
  membersWhere(
    (voter) =>
      (!filter.gender || voter.gender === filter.gender) &&
      (!filter.country || voter.country === filter.country) &&
      voter.age >= (filter.min_age ?? 0) &&
      voter.age <= (filter.max_age ?? 999),
  );

/**
 * The cells of the release a breakdown adds up: a table (a country, or every country) and its genders and age bands.
 */
function cellsOf(filter: Filter): Set<string> {
  const bands = bandsTouched(filter.min_age ?? 0, filter.max_age ?? 999);
  const cells = new Set<string>();
  for (const gender of filter.gender ? [filter.gender] : ['F', 'M']) {
    for (let band = bands.first; band <= bands.last; band += 1)
      cells.add(`${filter.country ?? 'all'}:${gender}:${band}`);
  }
  return cells;
}

/** Every response a breakdown filter gives (JSON and download), checked against the release it is read from. */
async function breakdownBodies(filter: Filter): Promise<string[]> {
  const source = `breakdown ${JSON.stringify(filter)}`;
  const reply = await attacker().api.raw('POST', api.breakdown(first), filter);
  expect(reply.status, source).toBe(200);
  const body = reply.parse(breakdownResultSchema);
  const group = await releasedGroup(
    ctx,
    { id: first, kind },
    { gender: filter.gender, country: filter.country, ages: body.ages ?? null },
  );
  expect(body.overall.count, source).toBe(voters.length);
  expect(body.privacy.counted, source).toBe(voters.length);
  if (body.privacy.exact) {
    // Only everyone is counted exactly.
    expect(naive({ ...filter, min_age: body.ages?.min, max_age: body.ages?.max }), source).toEqual(everyone());
  } else {
    expect(body.privacy.count_sd, source).toBe(Math.round(group.countSd * 100) / 100);
    // A group's voters by age band and country are public; what one vote moves, an answer's count, is never exact.
    expect(group.answerSd, source).toBeGreaterThanOrEqual(leastSd(BREAKDOWN_RHO));
    expect(body.question.result?.suppressed ?? false, source).toBe(!group.shown);
    if (group.shown)
      expect(body.question.result?.count, source).toBe(group.released.reduce((sum, count) => sum + count, 0));
  }
  const csv = await attacker().api.raw('GET', `${api.breakdownCsv(first)}?${queryString(filter)}`);
  return [reply.text, csv.text];
}

async function relateBodies(second: number, choices: number): Promise<string[]> {
  const bodies: string[] = [];
  for (let choice = 1; choice <= choices; choice += 1) {
    const reply = await attacker().api.raw('POST', api.relate(first, second), { choice });
    const body = reply.parse(relateResultSchema);
    const row = await releasedRow(
      ctx,
      { id: first, kind },
      { id: second, kind: { type: 'MC', keys: Array.from({ length: choices }, (_, index) => index + 1) } },
      choice,
    );
    // The pair's one epoch counts everyone among each question's first votes up to its release
    // point: 64 of the question attacked, and of the one the victim skipped (63 votes) 62.
    expect(body.privacy).toEqual({
      first_counted: 64,
      second_counted: second === skipped ? 62 : 64,
      count_sd: Math.round(row.countSd * 100) / 100,
    });
    expect(body.privacy!.count_sd).toBeGreaterThanOrEqual(leastSd(RELATE_PAIR_RHO));
    expect(body.question.result?.suppressed ?? false, `relate to ${second}, choice ${choice}`).toBe(!row.shown);
    bodies.push(reply.text, (await attacker().api.raw('GET', `${api.relateCsv(first, second)}?choice=${choice}`)).text);
  }
  bodies.push((await attacker().api.raw('GET', api.relateCsv(first, second))).text);
  return bodies;
}

const ageRanges: [number, number][] = [
  [0, 999],
  [20, 60],
  [21, 60],
  [18, 24],
  [25, 34],
  [45, 54],
  [50, 50],
  [45, 64],
  [0, 44],
  [0, 54],
  [45, 999],
  [55, 999],
  [65, 999],
  [25, 999],
];

function allFilters(): Filter[] {
  return [undefined, 'F' as const, 'M' as const].flatMap((gender) =>
    ageRanges.flatMap(([min_age, max_age]) =>
      [undefined, US, FRANCE, JAPAN].map((country) => ({
        min_age,
        max_age,
        ...(gender ? { gender } : {}),
        ...(country ? { country } : {}),
      })),
    ),
  );
}

const noiseRows = async () =>
  Number(
    (
      await ctx.database.db
        .selectFrom('epoch_noise')
        .select((eb) => eb.fn.countAll<number>().as('rows'))
        .executeTakeFirstOrThrow()
    ).rows,
  );

/** The cells of a table of `sizes` (answer, gender, age band, country) kept by `mask`. */
const cellsIn = (sizes: number[], mask: number) =>
  sizes.reduce((cells, size, index) => (mask & (1 << index) ? cells * size : cells), 1);

/**
 * The cells every epoch released so far measures: the breakdown's tables of the question attacked, and its relate
 * pairs' tables.
 */
async function cellsReleased(): Promise<number> {
  const { db } = ctx.database;
  const epochs = await db
    .selectFrom('breakdown_epochs')
    .select(['countries', 'tables'])
    .where('question_id', '=', first)
    .execute();
  let cells = 0;
  for (const epoch of epochs) {
    const sizes = breakdownSizes(3, (JSON.parse(epoch.countries) as number[]).length);
    for (const { mask } of JSON.parse(epoch.tables) as { mask: number }[]) cells += cellsIn(sizes, mask);
  }
  const pairs = await db
    .selectFrom('relate_releases')
    .select(['high_id', 'low_counted', 'high_counted', 'tables'])
    .where('low_id', '=', first)
    .execute();
  // A pair's tables have a cell per answer of the questions they keep; its epoch 0 counts nobody and measures nothing.
  for (const pair of pairs) {
    if (pair.low_counted === 0 && pair.high_counted === 0) continue;
    const sizes = [3, pair.high_id === skipped ? 2 : 3];
    for (const { mask } of JSON.parse(pair.tables!) as { mask: number }[]) cells += cellsIn(sizes, mask);
  }
  return cells;
}

describe('the differencing attack', () => {
  /**
   * Each pair of filters singles a person out with exact counts: `alone` is the group of that
   * person only that the attacker reads, from one response or by subtracting one from the other
   * (and from everyone's exact counts); null when both filters widen to the same age bands.
   */
  const attacks: { name: string; pair: [Filter, Filter]; target: () => number; alone: Filter | null }[] = [
    {
      name: 'ages 20–60 against 21–60',
      pair: [
        { min_age: 20, max_age: 60 },
        { min_age: 21, max_age: 60 },
      ],
      target: () => youngest,
      alone: null,
    },
    {
      name: 'France against the women of France',
      pair: [{ country: FRANCE }, { country: FRANCE, gender: 'F' }],
      target: () => victim,
      alone: { country: FRANCE, gender: 'M' },
    },
    {
      name: 'ages 45–64 in France against its women',
      pair: [
        { min_age: 45, max_age: 64, country: FRANCE },
        { min_age: 45, max_age: 64, country: FRANCE, gender: 'F' },
      ],
      target: () => victim,
      alone: { min_age: 45, max_age: 64, country: FRANCE, gender: 'M' },
    },
    {
      name: 'France against France at 55 and over',
      pair: [{ country: FRANCE }, { country: FRANCE, min_age: 55 }],
      target: () => victim,
      alone: { country: FRANCE, max_age: 54 },
    },
    {
      name: 'under 45 and 55 and over, against everyone',
      pair: [{ max_age: 44 }, { min_age: 55 }],
      target: () => victim,
      alone: { min_age: 45, max_age: 54 },
    },
    {
      name: 'up to 54 and from 45, overlapping in one person',
      pair: [{ max_age: 54 }, { min_age: 45 }],
      target: () => victim,
      alone: { min_age: 45, max_age: 54 },
    },
    {
      name: 'the men of France against France',
      pair: [{ country: FRANCE, gender: 'M' }, { country: FRANCE }],
      target: () => victim,
      alone: { country: FRANCE, gender: 'M' },
    },
  ];

  for (const attack of attacks) {
    it(`learns only noise from ${attack.name}`, async () => {
      // With exact counts, the pair would single the person out.
      expect(exposedSets(voters.length, [everyone(), ...attack.pair.map(naive)], k)).toContainEqual([attack.target()]);
      const [a, b] = attack.pair.map(cellsOf);
      if (!attack.alone) {
        // Both filters widen to the same bands: the same group, the same numbers, nothing to subtract.
        expect([...a].sort()).toEqual([...b].sort());
        expect((await breakdownBodies(attack.pair[0]))[0]).toBe((await breakdownBodies(attack.pair[1]))[0]);
        return;
      }
      // Each response is the release's: a sum of the same kept cells of its estimate, whose noise
      // over every cell together is 0 (everyone's counts are exact). What the attacker works out
      // from them is the release's count of the group of the target alone, whose vote it counts…
      for (const filter of attack.pair) await breakdownBodies(filter);
      expect(naive(attack.alone)).toEqual([attack.target()]);
      const { gender, country, min_age = 0, max_age = 999 } = attack.alone;
      const alone = await releasedGroup(
        ctx,
        { id: first, kind },
        { gender, country, ages: { min: min_age, max: max_age } },
      );
      expect(alone.exact).toEqual(kind.keys.map((key) => (key === voters[attack.target()].first ? 1 : 0)));
      // …with noise in each answer's count of an sd the budget keeps at 2 or more: a vote either
      // way is within the noise.
      expect(alone.answerSd).toBeGreaterThanOrEqual(leastSd(BREAKDOWN_RHO));
    });
  }

  it(
    'asks every breakdown, download and relate twice, and gets the same numbers with no new noise drawn',
    { timeout: 120_000 },
    async () => {
      const round = async () => {
        const bodies: string[] = [];
        for (const filter of allFilters()) bodies.push(...(await breakdownBodies(filter)));
        bodies.push(...(await relateBodies(skipped, 2)), ...(await relateBodies(rare, 3)));
        return bodies;
      };
      const once = await round();
      // Every cell of every table released is drawn once, and nothing else.
      const drawn = await noiseRows();
      expect(drawn).toBe(await cellsReleased());
      expect(await round()).toEqual(once);
      expect(await noiseRows()).toBe(drawn);
    },
  );
});

describe('the release', () => {
  it('has cells for every gender and age band of each table, even those nobody is in', async () => {
    await attacker().api.raw('POST', api.breakdown(first), { gender: 'F', country: JAPAN });
    const { db } = ctx.database;
    const epochs = await db
      .selectFrom('breakdown_epochs')
      .selectAll()
      .where('question_id', '=', first)
      .orderBy('epoch')
      .execute();
    // Release points at 32, 48 and 64 votes: three epochs of the stream, each of the votes since the
    // one before, all with voters of every country (public, as every voter's country is).
    expect(
      epochs.map((epoch) => [epoch.epoch, epoch.counted, JSON.parse(epoch.countries), epoch.legacy, epoch.factorized]),
    ).toEqual([
      [1, 32, [FRANCE, JAPAN, US], 0, 1],
      [2, 48, [FRANCE, JAPAN, US], 0, 1],
      [3, 64, [FRANCE, JAPAN, US], 0, 1],
    ]);
    for (const epoch of epochs) {
      const tables = JSON.parse(epoch.tables) as { mask: number; num: string; den: string }[];
      // Voters by gender, each of gender, age band and country by answer, and the full table: voters
      // by age band and by country are public, and held exact.
      const masks = [GENDER, ANSWER | GENDER, ANSWER | BAND, ANSWER | COUNTRY, ANSWER | GENDER | BAND | COUNTRY];
      expect(tables.map((table) => table.mask)).toEqual(masks);
      // A vote is in this epoch's release and, weighted, in every later one: the weights' squares
      // times what each table spends add up to at most its breakdown budget, Σ R_k² / s² ≤ 1/8.
      expect(
        tables.reduce((spent, table) => spent + (FACTOR_NORM * Number(table.den)) / Number(table.num), 0),
      ).toBeLessThanOrEqual(BREAKDOWN_RHO);
      // Every cell of every table is drawn, whatever the votes: the full table alone is 3 answers ×
      // 2 genders × 7 age bands × 3 countries, 126 cells, though only women of 18 to 24 voted from
      // Japan, and nobody under 18 anywhere. A cell is kept by its table, its other attributes and
      // its country's id.
      const sizes = breakdownSizes(3, 3);
      const cells = await db
        .selectFrom('epoch_noise')
        .select('cell')
        .where('question_id', '=', first)
        .where('other_id', '=', 0)
        .where('epoch', '=', epoch.epoch)
        .orderBy('cell')
        .execute();
      const keys = tables.flatMap(({ mask }, table) =>
        Array.from({ length: cellsIn(sizes.slice(0, 3), mask) }, (_, inner) =>
          (mask & COUNTRY ? [FRANCE, JAPAN, US] : [0]).map((country) => table * 2 ** 20 + inner * 2 ** 10 + country),
        ).flat(),
      );
      expect(keys).toHaveLength(tables.reduce((sum, table) => sum + cellsIn(sizes, table.mask), 0));
      expect(cells.map((row) => row.cell)).toEqual(keys.sort((a, b) => a - b));
    }
  });
});
