import { answerBodySchema, api, breakdownFilterBodySchema, breakdownResultSchema, questionSchema, relateResultSchema, type Result } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { exposedSets, type Members } from './attacker.js';
import { AGE_BANDS } from './ages.js';
import { BRAZIL, downloadGroups, FRANCE, generateCommunity, JAPAN, many, queryString, seededRandom, signUpAs, US, type LabelledVotes, type Person } from './testing.js';

/**
 * The differencing attack: someone who knows everyone's gender, age, country and answers to other
 * questions asks for every filter, downloads every CSV and relates the question to others, then
 * combines any two responses to single out how one person voted. Each response publishes groups
 * (the filtered group, everyone); the attacker learns the votes of every set of people that sums
 * and differences of those groups count exactly.
 */

interface Voter extends Person {
  user: TestUser;
  /** Choices on the question attacked, on one the victim skipped, and on one with a rare choice. */
  first: number;
  second: number | null;
  third: number;
}

/** One response as the attacker reads it: the groups whose votes it shows. */
interface Response {
  source: string;
  groups: Members[];
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

function membersWhere(match: (voter: Voter) => boolean): Members {
  return voters.flatMap((voter, index) => (match(voter) ? [index] : []));
}

/** Votes per choice of the question attacked, among some people. */
function votesOf(members: Members): Map<number, number> {
  const votes = new Map<number, number>();
  for (const index of members) votes.set(voters[index].first, (votes.get(voters[index].first) ?? 0) + 1);
  return votes;
}

const labels = ['Walk', 'Bike', 'Drive'];

/** A download's votes by answer label, as the votes of the people the test says it counts. */
function expectVotes(shown: LabelledVotes, members: Members, source: string): void {
  const votes = votesOf(members);
  expect(shown, source).toEqual(Object.fromEntries(labels.map((label, index) => [label, votes.get(index + 1) ?? 0])));
}

function expectResult(result: Result, members: Members, source: string): void {
  expect(result.count, source).toBe(members.length);
}

/** The JSON breakdown and its download, each as the groups it shows, checked against who they count. */
async function breakdownResponses(filter: Filter): Promise<Response[]> {
  const source = `breakdown ${JSON.stringify(filter)}`;
  const reply = await attacker().api.raw('POST', api.breakdown(first), filter);
  expect(reply.status, source).toBe(200);
  const body = reply.parse(breakdownResultSchema);
  const ages = body.ages ?? { min: 0, max: 999 };
  const members = membersWhere(
    (voter) => (!filter.gender || voter.gender === filter.gender) && (!filter.country || voter.country === filter.country) && voter.age >= ages.min && voter.age <= ages.max,
  );
  expectResult(body.overall, everyone(), source);
  const shown = !body.question.result?.suppressed;
  if (shown) expectResult(body.question.result!, members, source);

  const csv = await attacker().api.raw('GET', `${api.breakdownCsv(first)}?${queryString(filter)}`);
  const group = downloadGroups(csv.text, null).get('');
  expect(group !== null, `${source} CSV shows what the JSON shows`).toBe(shown);
  if (group) {
    expectVotes(group.votes, members, `${source} CSV`);
    expectVotes(group.everyone, everyone(), `${source} CSV, everyone`);
  }
  return [
    { source, groups: shown ? [everyone(), members] : [everyone()] },
    { source: `${source} CSV`, groups: group ? [everyone(), members] : [] },
  ];
}

/** Relating the attacked question to another: each choice's voters, and the downloads of all and of each. */
async function relateResponses(second: number, choiceOf: (voter: Voter) => number | null, choices: string[]): Promise<Response[]> {
  const rowMembers = (choice: number) => membersWhere((voter) => choiceOf(voter) === choice);
  const responses: Response[] = [];
  for (const [index, label] of choices.entries()) {
    const choice = index + 1;
    const source = `relate to ${second}, "${label}" voters`;
    const reply = await attacker().api.raw('POST', api.relate(first, second), { choice });
    expect(reply.status, source).toBe(200);
    const body = reply.parse(relateResultSchema);
    expectResult(body.overall, everyone(), source);
    const shown = !body.question.result?.suppressed;
    if (shown) expectResult(body.question.result!, rowMembers(choice), source);
    responses.push({ source, groups: shown ? [everyone(), rowMembers(choice)] : [everyone()] });

    const one = downloadGroups((await attacker().api.raw('GET', `${api.relateCsv(first, second)}?choice=${choice}`)).text, 'second_answer');
    expect([...one.keys()]).toEqual([label]);
    responses.push({ source: `${source} CSV`, groups: one.get(label) ? [everyone(), rowMembers(choice)] : [] });
  }
  const all = downloadGroups((await attacker().api.raw('GET', api.relateCsv(first, second))).text, 'second_answer');
  expect([...all.keys()]).toEqual(choices);
  const groups: Members[] = [];
  for (const [index, label] of choices.entries()) {
    const group = all.get(label);
    if (!group) continue;
    expectVotes(group.votes, rowMembers(index + 1), `relate to ${second} CSV, "${label}"`);
    expectVotes(group.everyone, everyone(), `relate to ${second} CSV, everyone`);
    groups.push(rowMembers(index + 1));
  }
  responses.push({ source: `relate to ${second} CSV`, groups: groups.length > 0 ? [everyone(), ...groups] : [] });
  return responses;
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

/** What the attacker learns from two responses together: the sets of fewer than k people they expose. */
function exposedBy(responses: Response[]): number[][] {
  return exposedSets(
    voters.length,
    responses.flatMap((response) => response.groups),
    k,
  );
}

const describeSet = (people: number[]) => people.map((index) => (index === victim ? 'the victim' : index === youngest ? 'the youngest' : `voter ${index}`)).join(' and ');

describe('the differencing attack', () => {
  /** Naive filters, counting exact ages, with nothing suppressed: what they would expose. */
  const naive = (filter: Filter): Members =>
    membersWhere(
      (voter) =>
        (!filter.gender || voter.gender === filter.gender) &&
        (!filter.country || voter.country === filter.country) &&
        voter.age >= (filter.min_age ?? 0) &&
        voter.age <= (filter.max_age ?? 999),
    );

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
    it(`learns nothing from ${attack.name}`, async () => {
      // Without the defence, the pair would single the person out.
      const naiveGroups = attack.pair.map(naive);
      expect(exposedSets(voters.length, [everyone(), ...naiveGroups], k)).toContainEqual([attack.target()]);

      const responses = (await Promise.all(attack.pair.map(breakdownResponses))).flat();
      const exposed = exposedBy(responses);
      expect(exposed.map(describeSet), responses.map((response) => `${response.source}: ${response.groups.map((group) => group.length).join('/')}`).join('; ')).toEqual([]);
    });
  }

  it('learns nothing from relating the question to one the victim skipped, nor to one with a rare choice', async () => {
    // Every choice's voters, without the defence, leave out exactly the victim, and the rare choice's three.
    const rows = (choiceOf: (voter: Voter) => number | null, count: number) => Array.from({ length: count }, (_, index) => membersWhere((voter) => choiceOf(voter) === index + 1));
    expect(exposedSets(voters.length, [everyone(), ...rows((voter) => voter.second, 2)], k)).toContainEqual([victim]);
    expect(exposedSets(voters.length, [everyone(), ...rows((voter) => voter.third, 2)], k)).toContainEqual([0, 1, victim]);

    for (const response of [
      ...(await relateResponses(skipped, (voter) => voter.second, ['Yes', 'No'])),
      ...(await relateResponses(rare, (voter) => voter.third, ['Summer', 'Winter', 'Autumn'])),
    ]) {
      expect(exposedBy([response]).map(describeSet), response.source).toEqual([]);
    }
  });

  it('learns nothing from any pair of all the breakdowns, downloads and relates it can ask for', { timeout: 120_000 }, async () => {
    const responses: Response[] = [];
    for (const filter of allFilters()) responses.push(...(await breakdownResponses(filter)));
    responses.push(...(await relateResponses(skipped, (voter) => voter.second, ['Yes', 'No'])));
    responses.push(...(await relateResponses(rare, (voter) => voter.third, ['Summer', 'Winter', 'Autumn'])));

    // Responses that show the same groups teach the same; each kind is tried against every other once.
    const distinct = new Map<string, Response>();
    for (const response of responses) {
      const key = response.groups
        .map((group) => group.join(','))
        .sort()
        .join('|');
      if (!distinct.has(key)) distinct.set(key, response);
    }
    const kinds = [...distinct.values()];
    const leaks: string[] = [];
    for (let i = 0; i < kinds.length; i += 1) {
      for (let j = i; j < kinds.length; j += 1) {
        for (const people of exposedBy([kinds[i], kinds[j]])) leaks.push(`${kinds[i].source} with ${kinds[j].source} exposes ${describeSet(people)}`);
      }
    }
    // The defence leaves plenty to see: everyone, each gender, each country, several age ranges.
    const shownGroups = new Set(kinds.flatMap((kind) => kind.groups.map((group) => group.join(','))));
    expect(shownGroups.size).toBeGreaterThanOrEqual(15);
    expect(leaks).toEqual([]);
  });
});

/**
 * Every breakdown of a question, for each gender or both, each range of whole age bands and each
 * country or all, and what any two of them together expose.
 */
async function breakdownLeaks(asker: TestUser, question: number, voted: Person[], countries: number[]): Promise<{ shown: number; leaks: string[] }> {
  const all = voted.map((_, index) => index);
  const responses: Response[] = [];
  for (const gender of [undefined, 'F', 'M'] as const) {
    for (let first = 0; first < AGE_BANDS.length; first += 1) {
      for (let last = first; last < AGE_BANDS.length; last += 1) {
        for (const country of [undefined, ...countries]) {
          const [min_age, max_age] = [AGE_BANDS[first].min, AGE_BANDS[last].max];
          const filter: Filter = { min_age, max_age, ...(gender ? { gender } : {}), ...(country ? { country } : {}) };
          const body = await asker.api.post(api.breakdown(question), breakdownFilterBodySchema, filter, breakdownResultSchema);
          if (body.question.result?.suppressed) continue;
          const members = all.filter((index) => {
            const voter = voted[index];
            return (!gender || voter.gender === gender) && (!country || voter.country === country) && voter.age >= min_age && voter.age <= max_age;
          });
          expect(body.question.result?.count, JSON.stringify(filter)).toBe(members.length);
          responses.push({ source: JSON.stringify(filter), groups: [all, members] });
        }
      }
    }
  }
  const distinct = [...new Map(responses.map((response) => [response.groups[1].join(','), response])).values()];
  const leaks: string[] = [];
  for (let i = 0; i < distinct.length; i += 1) {
    for (let j = i + 1; j < distinct.length; j += 1) {
      const exposed = exposedSets(voted.length, [...distinct[i].groups, distinct[j].groups[1]], k);
      for (const set of exposed) leaks.push(`${distinct[i].source} with ${distinct[j].source} exposes ${set.length} voter(s)`);
    }
  }
  return { shown: distinct.length, leaks };
}

/** A fresh app with a question everyone of `people` answered at random, and what its breakdowns expose. */
async function attackCommunity(people: (ctx: TestContext, random: () => number) => Promise<(Person & { user: TestUser })[]>, countries: number[]) {
  const community = await createTestApp();
  try {
    const random = seededRandom(7);
    const voted = await people(community, random);
    const question = await ask(await signUp(community), { question: 'Tea, coffee or water?', choices: ['Tea', 'Coffee', 'Water'] });
    for (const voter of voted) await voter.user.api.post(api.answer(question), answerBodySchema, { choice: 1 + Math.floor(random() * 3) }, questionSchema);
    return await breakdownLeaks(voted[0].user, question, voted, countries);
  } finally {
    await community.close();
  }
}

describe('the differencing attack on other communities', () => {
  it('learns nothing from any pair of breakdowns on a generated community', { timeout: 300_000 }, async () => {
    const countries = [US, FRANCE, JAPAN, BRAZIL];
    const { shown, leaks } = await attackCommunity(async (community, random) => {
      const people = await generateCommunity(community, random, 160, countries);
      return people.filter(() => random() < 0.9);
    }, countries);
    expect(shown).toBeGreaterThan(30);
    expect(leaks).toEqual([]);
  });

  const coveringCommunities: { name: string; people: Person[] }[] = [
    {
      // The women of 65 and over live in France and Japan, everyone else in the US but one man
      // of 30 in France: the US beside those women would leave out just him.
      name: 'one country and a group living elsewhere hold everyone but one man',
      people: [
        ...many(6, { gender: 'F', age: 30, country: US }),
        ...many(6, { gender: 'M', age: 40, country: US }),
        ...many(6, { gender: 'M', age: 70, country: US }),
        ...many(3, { gender: 'F', age: 70, country: FRANCE }),
        ...many(3, { gender: 'F', age: 70, country: JAPAN }),
        { gender: 'M', age: 30, country: FRANCE },
      ],
    },
    {
      // Everyone lives in the US or France but one woman in Japan, and both countries look alike.
      name: 'two countries hold everyone but one woman',
      people: [
        ...many(6, { gender: 'F', age: 30, country: US }),
        ...many(6, { gender: 'M', age: 40, country: US }),
        ...many(3, { gender: 'F', age: 30, country: FRANCE }),
        ...many(3, { gender: 'M', age: 40, country: FRANCE }),
        { gender: 'F', age: 30, country: JAPAN },
      ],
    },
    {
      // Japan's voters are all women of 30, and so is one more woman, in France.
      name: 'one country holds a whole group but one woman',
      people: [
        ...many(6, { gender: 'M', age: 30, country: US }),
        ...many(6, { gender: 'F', age: 50, country: US }),
        ...many(6, { gender: 'F', age: 30, country: JAPAN }),
        ...many(6, { gender: 'M', age: 50, country: BRAZIL }),
        { gender: 'F', age: 30, country: FRANCE },
      ],
    },
  ];

  for (const { name, people } of coveringCommunities) {
    it(`learns nothing where ${name}`, { timeout: 120_000 }, async () => {
      const { shown, leaks } = await attackCommunity(
        (community) => Promise.all(people.map(async (person) => ({ ...person, user: await signUpAs(community, person) }))),
        [US, FRANCE, JAPAN, BRAZIL],
      );
      expect(shown).toBeGreaterThan(3);
      expect(leaks).toEqual([]);
    });
  }
});
