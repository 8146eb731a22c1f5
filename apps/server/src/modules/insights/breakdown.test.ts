import {
  answerBodySchema,
  api,
  blockedSchema,
  breakdownInfoSchema,
  breakdownResultSchema,
  questionSchema,
  type BreakdownResult,
  type Result,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, secondInstance, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { percentages, type QuestionKind } from '../../views/results.js';
import type { Voter } from '../../views/viewer-states.js';
import { proportionMargin } from './stats.js';
import {
  answerAll,
  answerNoiseSd,
  BRAZIL,
  castVotes,
  createPeople,
  csvRecords,
  downloadGroups,
  expectOnlyDeclared,
  FRANCE,
  JAPAN,
  many,
  releasedGroup,
  seededNoise,
  signUpAs,
  US,
} from '../../../test/insights.js';

let ctx: TestContext;
let author: TestUser;
let women30: TestUser[];
let men40: TestUser[];
let women50: TestUser[];
let cats: number;

// A small community that signs up: 8 women of 30 in the US, 8 men of 40 in France, 6 women of 50 in Japan.
beforeAll(async () => {
  // The noise of one seed, so that which of the large groups' noisy counts clear the bar is known.
  ctx = await createTestApp({}, { noiseRandom: seededNoise(31) });
  author = await signUp(ctx);
  const signUpMany = async (people: Parameters<typeof signUpAs>[1][]) =>
    Promise.all(people.map((person) => signUpAs(ctx, person)));
  women30 = await signUpMany(many(8, { gender: 'F', age: 30, country: US }));
  men40 = await signUpMany(many(8, { gender: 'M', age: 40, country: FRANCE }));
  women50 = await signUpMany(many(6, { gender: 'F', age: 50, country: JAPAN }));
  cats = await ask(author, { question: 'Cats or dogs?', choices: ['Cats', 'Dogs', 'Both'] });
  await answerAll(women30, cats, [1, 1, 1, 2]);
  await answerAll(men40, cats, [2, 2, 2, 3]);
  await answerAll(women50, cats, [1, 3]);
});
afterAll(() => ctx.close());

const filtered = (user: TestUser, id: number, body: Record<string, unknown>) =>
  user.api.raw('POST', api.breakdown(id), body);

describe('who may see a breakdown', () => {
  it('answers 404 for an unknown question', async () => {
    for (const reply of [
      await women30[0].api.raw('GET', api.breakdown(999_999)),
      await filtered(women30[0], 999_999, {}),
    ]) {
      expect(reply.status).toBe(404);
      reply.error();
    }
  });

  it('answers 403 to someone who has not answered the question, and serves them once they have', async () => {
    const question = await ask(author);
    const newcomer = await signUp(ctx);
    const csv = () => newcomer.api.raw('GET', api.breakdownCsv(question));
    for (const reply of [
      await newcomer.api.raw('GET', api.breakdown(question)),
      await filtered(newcomer, question, {}),
      await csv(),
    ]) {
      expect(reply.status).toBe(403);
      expect(reply.error().message).toMatch(/answer/i);
    }
    await newcomer.api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
    expect((await newcomer.api.raw('GET', api.breakdown(question))).status).toBe(200);
    expect((await filtered(newcomer, question, {})).status).toBe(200);
    expect((await csv()).status).toBe(200);
  });

  it('serves the author without a vote of their own, and nobody blocked either way', async () => {
    const question = await ask(author);
    expect((await author.api.raw('GET', api.breakdown(question))).status).toBe(200);
    const blocked = await signUp(ctx);
    await blocked.api.post(api.answer(question), answerBodySchema, { choice: 2 }, questionSchema);
    await author.api.post(api.ban(blocked.id), blockedSchema);
    expect((await blocked.api.raw('GET', api.breakdown(question))).status).toBe(403);
    expect((await filtered(blocked, question, {})).status).toBe(403);
  });
});

describe('the filters a breakdown offers', () => {
  it('lists both genders, the youngest and oldest voters’ ages and the countries that have voters', async () => {
    const reply = await women30[0].api.raw('GET', api.breakdown(cats));
    expect(reply.status).toBe(200);
    expectOnlyDeclared(breakdownInfoSchema, reply.json());
    const body = reply.parse(breakdownInfoSchema);
    expect(body.filters).toEqual({
      gender: [
        { value: 'F', label: 'Female' },
        { value: 'M', label: 'Male' },
      ],
      age: { min: 30, max: 50 },
      country: [FRANCE, JAPAN, US],
    });
    expect(body.question.id).toBe(cats);
    expect(body.question.result?.count).toBe(22);
    // Too few votes to release anything yet: every group of each attribute's split says so.
    expect(body.splits.gender.map((group) => [group.label, group.shown])).toEqual([
      ['Female', false],
      ['Male', false],
    ]);
    expect(body.splits.age.map((group) => group.label)).toEqual(['25–34', '35–44', '45–54']);
    expect(body.splits.country.map((group) => group.label)).toEqual(['France', 'Japan', 'United States of America']);
  });

  it('offers the age defaults when nobody has voted yet', async () => {
    const empty = await ask(author, { question: 'Nobody yet?' });
    const reply = await author.api.raw('GET', api.breakdown(empty));
    expect(reply.parse(breakdownInfoSchema).filters).toMatchObject({ age: { min: 0, max: 999 }, country: [] });
  });
});

describe('everyone’s result', () => {
  it('is exact with no filter, with each percentage’s margin of error and nothing significant', async () => {
    for (const body of [{}, { min_age: '', max_age: '', country: '', gender: '' }, { min_age: 0, max_age: 999 }]) {
      const reply = await filtered(women30[0], cats, body);
      expect(reply.status, JSON.stringify(body)).toBe(200);
      expectOnlyDeclared(breakdownResultSchema, reply.json());
      const result = reply.parse(breakdownResultSchema);
      expect(result.question.result).toEqual({
        count: 22,
        answers: [
          { key: 1, percent: 41 },
          { key: 2, percent: 36 },
          { key: 3, percent: 23 },
        ],
      });
      expect(result.overall).toEqual(result.question.result);
      expect(result.ages).toBeNull();
      expect(result.privacy).toEqual({ exact: true, counted: 22, count_sd: 0 });
      expect(
        result.comparison?.rows.map((row) => [row.label, row.percent, row.overall_percent, row.significant]),
      ).toEqual([
        ['Cats', 41, 41, false],
        ['Dogs', 36, 36, false],
        ['Both', 23, 23, false],
      ]);
      // 9 of 22: the 95% Wilson interval is 23.3% to 61.3%, 19.0 points either side.
      expect(result.comparison?.rows[0].margin).toBe(19);
    }
  });

  it('counts every vote for everyone, and a group’s up to the last release point, and says so', async () => {
    const voters = await createPeople(ctx, many(40, { gender: 'M', age: 20, country: BRAZIL }));
    const question = await ask(author, { choices: ['Yes', 'No'] });
    // 35 votes: the release points are 32, 64, 128…, so a group counts the first 32, and everyone all 35.
    await castVotes(
      ctx,
      voters.slice(0, 35).map((voter, index) => ({ questionId: question, voter, choice: (index % 2) + 1 })),
    );
    const everyone = (await filtered(author, question, {})).parse(breakdownResultSchema);
    expect(everyone.privacy).toEqual({ exact: true, counted: 35, count_sd: 0 });
    expect(everyone.overall.count).toBe(35);
    const men = (await filtered(author, question, { gender: 'M' })).parse(breakdownResultSchema);
    expect(men.privacy).toMatchObject({ exact: false, counted: 32 });
    expect(men.overall.count).toBe(32);
  });
});

interface Asked {
  id: number;
  kind: QuestionKind;
}

describe('a group’s result', () => {
  let drink: Asked;
  let sleep: Asked;
  let researcher: TestUser;
  // A larger community, made in the database: 3 men of 70 in Brazil; 2,000 women of 30 in the
  // US, who mostly drink tea and sleep well; 2,000 men of 40 in France, who mostly drink coffee
  // and sleep badly; 1,000 women of 50 in Japan, who drink water.
  beforeAll(async () => {
    const voters = await createPeople(ctx, [
      ...many(3, { gender: 'M', age: 70, country: BRAZIL }),
      ...many(2_000, { gender: 'F', age: 30, country: US }),
      ...many(2_000, { gender: 'M', age: 40, country: FRANCE }),
      ...many(1_000, { gender: 'F', age: 50, country: JAPAN }),
    ]);
    drink = {
      id: await ask(author, { question: 'Tea, coffee or water?', choices: ['Tea', 'Coffee', 'Water'] }),
      kind: { type: 'MC', keys: [1, 2, 3] },
    };
    sleep = {
      id: await ask(author, { type: 'RS', question: 'Rate your sleep', choices: [] }),
      kind: { type: 'RS', min: 1, max: 10 },
    };
    const drinkOf = (index: number) =>
      index < 2_003 ? (index % 4 === 0 ? 2 : 1) : index < 4_003 ? (index % 4 === 0 ? 1 : 2) : 3;
    const sleepOf = (index: number) => (index < 2_003 ? 7 + (index % 3) : index < 4_003 ? 3 + (index % 3) : 5);
    await castVotes(ctx, [
      ...voters.map((voter: Voter, index) => ({ questionId: drink.id, voter, choice: drinkOf(index) })),
      ...voters.map((voter: Voter, index) => ({ questionId: sleep.id, voter, choice: sleepOf(index) })),
    ]);
    researcher = women30[0];
    await answerAll([researcher], drink.id, [1]);
    await answerAll([researcher], sleep.id, [8]);
  });

  const filters: Record<string, unknown>[] = [
    { gender: 'F' },
    { gender: 'M' },
    { country: US },
    { country: JAPAN, gender: 'F' },
    { min_age: 30, max_age: 40 },
    { min_age: 45, max_age: 60, country: JAPAN },
    { country: BRAZIL },
    { gender: 'M', min_age: 65 },
    { country: FRANCE, gender: 'F' },
  ];

  /** The result a group's released counts show. */
  function expectReleased(result: Result, released: number[], kind: QuestionKind, source: string): void {
    const count = released.reduce((sum, votes) => sum + votes, 0);
    expect(result.count, source).toBe(count);
    if (kind.type === 'MC')
      expect(result.answers, source).toEqual(
        kind.keys.map((key, index) => ({ key, percent: percentages(released)[index] })),
      );
    else expect(result.answers, source).toEqual(released.map((votes, index) => ({ choice: index + 1, count: votes })));
  }

  it('is the release’s: each answer’s votes plus the noise kept for its cells, shown when the noisy count says enough', async () => {
    let shown = 0;
    for (const question of [drink, sleep]) {
      for (const filter of filters) {
        const source = `${question.kind.type} ${JSON.stringify(filter)}`;
        const body = (await filtered(researcher, question.id, filter)).parse(breakdownResultSchema);
        const group = await releasedGroup(ctx, question, {
          gender: filter.gender as 'F' | 'M' | undefined,
          country: filter.country as number | undefined,
          ages: body.ages ?? null,
        });
        expect(body.privacy, source).toEqual({
          exact: false,
          counted: group.counted,
          count_sd: Math.round(group.countSd * 100) / 100,
        });
        expect(body.question.result?.suppressed ?? false, source).toBe(!group.shown);
        if (!group.shown) {
          expect(body.comparison, source).toBeNull();
          continue;
        }
        expectReleased(body.question.result!, group.released, question.kind, source);
        shown += 1;
      }
    }
    // Groups of a thousand or more are shown, but for a draw or two of the ratings of a thousand, too few beside the
    // noise of ten answers: on PostgreSQL, which epoch takes which seeded draw follows the order parallel reads end in,
    // and about one run in twenty shows one group fewer.
    expect(shown).toBeGreaterThanOrEqual(10);
  });

  it('shows a group of thousands close to its exact answers, with margins that count the noise, and marks real differences', async () => {
    const body = (await filtered(researcher, drink.id, { gender: 'F' })).parse(breakdownResultSchema);
    const group = await releasedGroup(ctx, drink, { gender: 'F', ages: null });
    expect(body.ages).toBeNull();
    const exactPercents = percentages(group.exact);
    const rows = body.comparison!.rows;
    rows.forEach((row, index) => {
      // Noise of standard deviation about 64 votes in each answer of 3,000 women: 2 points; 9 is 4 standard deviations.
      expect(Math.abs(row.percent - exactPercents[index]), row.label).toBeLessThanOrEqual(9);
      // Wider than sampling alone would make it.
      expect(row.margin, row.label).toBeGreaterThan(
        Math.round(proportionMargin(group.released[index], body.question.result!.count) * 1000) / 10,
      );
    });
    // Women drink tea and water, men coffee: 17% of the women against 75% of the men.
    expect(rows[1].significant).toBe(true);
    expect(rows[1].percent).toBeLessThan(30);
  });

  it('compares a rating’s average with its margin of error', async () => {
    const { comparison, question } = (await filtered(researcher, sleep.id, { country: US })).parse(
      breakdownResultSchema,
    );
    // The women of the US rate their sleep 7 to 9, the others 3 to 5; the noise moves the average of 2,000 by about
    // half a point.
    expect(comparison?.rows).toEqual([]);
    expect(Math.abs(comparison!.average!.value - 8)).toBeLessThan(2);
    expect(comparison?.average?.significant).toBe(true);
    expect(question.result?.average).toBe(comparison?.average?.value);
  });

  it('counts an age range widened to whole bands', async () => {
    // 30 to 40 covers the bands 25–34 and 35–44: the women of 30 and the men of 40.
    const body = (await filtered(researcher, drink.id, { min_age: 30, max_age: 40 })).parse(breakdownResultSchema);
    expect(body.ages).toEqual({ min: 25, max: 44 });
    expect(Math.abs(body.question.result!.count - 4_001)).toBeLessThan(400);
  });

  it('gives the same numbers asked again, and from another instance or after a restart: the noise is drawn once', async () => {
    const filter = { gender: 'M', country: FRANCE };
    const ask = async (app = ctx.app) =>
      (
        await app.inject({
          method: 'POST',
          url: api.breakdown(drink.id),
          headers: { authorization: `Token ${researcher.token}` },
          payload: filter,
        })
      ).json() as BreakdownResult;
    const first = await ask();
    expect(first.privacy.exact).toBe(false);
    expect(await ask()).toEqual(first);
    // An instance with nothing in memory, as another server or this one restarted.
    for (let round = 0; round < 2; round += 1) {
      const other = await secondInstance(ctx);
      try {
        expect(await ask(other.app)).toEqual(first);
      } finally {
        await other.close();
      }
    }
  });

  it('refuses a bad filter field by field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ min_age: 50, max_age: 20 }, 'min_age'],
      [{ min_age: -1 }, 'min_age'],
      [{ max_age: 1000 }, 'max_age'],
      [{ min_age: 'old' }, 'min_age'],
      [{ gender: 'X' }, 'gender'],
      [{ country: 'abc' }, 'country'],
      [{ country: 0 }, 'country'],
    ];
    for (const [body, field] of cases) {
      const reply = await filtered(researcher, drink.id, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(reply.error().errors ?? {}), JSON.stringify(body)).toEqual([field]);
    }
  });

  it('downloads as a CSV attachment with the noise beside the votes', async () => {
    const reply = await researcher.api.raw('GET', `${api.breakdownCsv(drink.id)}?gender=F&min_age=&country=`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/csv/);
    expect(reply.headers['content-disposition']).toBe(
      `attachment; filename="QID${String(drink.id).padStart(3, '0')}-breakdown.csv"`,
    );
    const lines = reply.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'question_id,question,filter,answer,votes,noise_sd,percent,margin_of_error,everyone_votes,everyone_percent,significant,note',
    );
    expect(lines).toHaveLength(4);
    const group = await releasedGroup(ctx, drink, { gender: 'F', ages: null });
    expect(csvRecords(reply.text)[0]).toMatchObject({
      question: 'Tea, coffee or water?',
      filter: 'women',
      answer: 'Tea',
      votes: String(group.released[0]),
      noise_sd: answerNoiseSd(group.answerSd),
    });
    const csv = downloadGroups(reply.text, null).get('')!;
    expect(csv.votes).toEqual({ Tea: group.released[0], Coffee: group.released[1], Water: group.released[2] });
  });

  it('says in its download when too few voters match, and shows nothing of them', async () => {
    const reply = await researcher.api.raw('GET', `${api.breakdownCsv(drink.id)}?country=36`);
    const lines = reply.text.trimEnd().split('\r\n');
    expect(lines).toEqual([
      lines[0],
      `${drink.id},"Tea, coffee or water?",Australia,,,,,,,,,too few voters match to show results`,
    ]);
  });

  it('validates its download’s filter like the form', async () => {
    const reply = await researcher.api.raw('GET', `${api.breakdownCsv(cats)}?min_age=60&max_age=20`);
    expect(reply.status).toBe(400);
    expect(reply.error().errors).toHaveProperty('min_age');
  });
});
