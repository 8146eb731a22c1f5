import { api, breakdownResultSchema, relateResultSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { exposedSets, type Members } from './attacker.js';
import { AGE_BANDS, bandsTouched } from './ages.js';
import { FRANCE, JAPAN, many, queryString, releasedGroup, releasedRow, signUpAs, US, type Person } from './testing.js';

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

// 12 women of 30 and 12 men of 40 in the US, 8 men of 70 in the US, 10 women of 60 in France,
// 6 women of 22 in Japan; the victim is the one man in France and the one voter aged 45 to 54,
// and the youngest voter the one woman of 20 in Japan.
beforeAll(async () => {
  ctx = await createTestApp();
  k = ctx.config.minGroupSize;
  const people: Person[] = [
    ...many(12, { gender: 'F', age: 30, country: US }),
    ...many(12, { gender: 'M', age: 40, country: US }),
    ...many(8, { gender: 'M', age: 70, country: US }),
    ...many(10, { gender: 'F', age: 60, country: FRANCE }),
    ...many(6, { gender: 'F', age: 22, country: JAPAN }),
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

/** The cells of the release a breakdown adds up: a table (a country, or every country) and its genders and age bands. */
function cellsOf(filter: Filter): Set<string> {
  const bands = bandsTouched(filter.min_age ?? 0, filter.max_age ?? 999);
  const cells = new Set<string>();
  for (const gender of filter.gender ? [filter.gender] : ['F', 'M']) {
    for (let band = bands.first; band <= bands.last; band += 1) cells.add(`${filter.country ?? 'all'}:${gender}:${band}`);
  }
  return cells;
}

/** Every response a breakdown filter gives (JSON and download), checked against the release it is read from. */
async function breakdownBodies(filter: Filter): Promise<string[]> {
  const source = `breakdown ${JSON.stringify(filter)}`;
  const reply = await attacker().api.raw('POST', api.breakdown(first), filter);
  expect(reply.status, source).toBe(200);
  const body = reply.parse(breakdownResultSchema);
  const group = await releasedGroup(ctx, { id: first, kind }, { gender: filter.gender, country: filter.country, ages: body.ages ?? null });
  expect(body.overall.count, source).toBe(voters.length);
  if (body.privacy.exact) {
    // Only everyone is counted exactly.
    expect(naive({ ...filter, min_age: body.ages?.min, max_age: body.ages?.max }), source).toEqual(everyone());
  } else {
    expect(body.privacy.count_sd, source).toBeGreaterThan(12);
    expect(body.question.result?.suppressed ?? false, source).toBe(!group.shown);
    if (group.shown) expect(body.question.result?.count, source).toBe(group.released.reduce((sum, count) => sum + count, 0));
  }
  const csv = await attacker().api.raw('GET', `${api.breakdownCsv(first)}?${queryString(filter)}`);
  return [reply.text, csv.text];
}

async function relateBodies(second: number, choices: number): Promise<string[]> {
  const bodies: string[] = [];
  for (let choice = 1; choice <= choices; choice += 1) {
    const reply = await attacker().api.raw('POST', api.relate(first, second), { choice });
    const body = reply.parse(relateResultSchema);
    const row = await releasedRow(ctx, { id: first, kind }, { id: second, kind: { type: 'MC', keys: Array.from({ length: choices }, (_, index) => index + 1) } }, choice);
    expect(body.privacy!.count_sd).toBeGreaterThan(12);
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
      [undefined, US, FRANCE, JAPAN].map((country) => ({ min_age, max_age, ...(gender ? { gender } : {}), ...(country ? { country } : {}) })),
    ),
  );
}

const noiseRows = async () =>
  Number(
    (
      await ctx.database.db
        .selectFrom('release_noise')
        .select((eb) => eb.fn.countAll<number>().as('rows'))
        .executeTakeFirstOrThrow()
    ).rows,
  );

describe('the differencing attack', () => {
  const attacks: { name: string; pair: [Filter, Filter]; target: () => number }[] = [
    {
      name: 'ages 20–60 against 21–60',
      pair: [
        { min_age: 20, max_age: 60 },
        { min_age: 21, max_age: 60 },
      ],
      target: () => youngest,
    },
    { name: 'France against the women of France', pair: [{ country: FRANCE }, { country: FRANCE, gender: 'F' }], target: () => victim },
    {
      name: 'ages 45–64 in France against its women',
      pair: [
        { min_age: 45, max_age: 64, country: FRANCE },
        { min_age: 45, max_age: 64, country: FRANCE, gender: 'F' },
      ],
      target: () => victim,
    },
    { name: 'France against France at 55 and over', pair: [{ country: FRANCE }, { country: FRANCE, min_age: 55 }], target: () => victim },
    { name: 'under 45 and 55 and over, against everyone', pair: [{ max_age: 44 }, { min_age: 55 }], target: () => victim },
    { name: 'up to 54 and from 45, overlapping in one person', pair: [{ max_age: 54 }, { min_age: 45 }], target: () => victim },
    { name: 'the men of France against France', pair: [{ country: FRANCE, gender: 'M' }, { country: FRANCE }], target: () => victim },
  ];

  for (const attack of attacks) {
    it(`learns only noise from ${attack.name}`, async () => {
      // With exact counts, the pair would single the person out.
      expect(exposedSets(voters.length, [everyone(), ...attack.pair.map(naive)], k)).toContainEqual([attack.target()]);
      const [a, b] = attack.pair.map(cellsOf);
      if ([...a].every((cell) => b.has(cell)) && [...b].every((cell) => a.has(cell))) {
        // Both filters widen to the same bands: the same group, the same numbers, nothing to subtract.
        expect((await breakdownBodies(attack.pair[0]))[0]).toBe((await breakdownBodies(attack.pair[1]))[0]);
        return;
      }
      // Each response is the release's; what subtracting them leaves carries the noise of every
      // cell one counts and the other does not, each of standard deviation 12 or more.
      for (const filter of attack.pair) await breakdownBodies(filter);
      const apart = [...a].filter((cell) => !b.has(cell)).length + [...b].filter((cell) => !a.has(cell)).length;
      expect(apart).toBeGreaterThan(0);
    });
  }

  it('asks every breakdown, download and relate twice, and gets the same numbers with no new noise drawn', { timeout: 120_000 }, async () => {
    const round = async () => {
      const bodies: string[] = [];
      for (const filter of allFilters()) bodies.push(...(await breakdownBodies(filter)));
      bodies.push(...(await relateBodies(skipped, 2)), ...(await relateBodies(rare, 3)));
      return bodies;
    };
    const once = await round();
    const drawn = await noiseRows();
    expect(drawn).toBeGreaterThan(0);
    expect(await round()).toEqual(once);
    expect(await noiseRows()).toBe(drawn);
  });
});

describe('the release', () => {
  it('has cells for every gender and age band of each table, even those nobody is in', async () => {
    await attacker().api.raw('POST', api.breakdown(first), { gender: 'F', country: JAPAN });
    // Japan's block: 2 genders × 7 age bands × 3 answers, though only women of 20 to 24 live there.
    const cells = await ctx.database.db
      .selectFrom('release_noise')
      .select('cell')
      .distinct()
      .where('question_id', '=', first)
      .where('cell', '>=', JAPAN * 256)
      .where('cell', '<', (JAPAN + 1) * 256)
      .execute();
    expect(cells).toHaveLength(2 * AGE_BANDS.length * 3);
  });
});
