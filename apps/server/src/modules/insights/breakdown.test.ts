import { answerBodySchema, api, blockedSchema, breakdownInfoSchema, breakdownResultSchema, questionSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { answerAll, expectOnlyDeclared, FRANCE, JAPAN, many, signUpAs, US } from './testing.js';

let ctx: TestContext;
let author: TestUser;
let women30: TestUser[];
let men40: TestUser[];
let women50: TestUser[];
let cats: number;
let rating: number;

// 8 women of 30 in the US, 8 men of 40 in France, 6 women of 50 in Japan.
beforeAll(async () => {
  ctx = await createTestApp();
  author = await signUp(ctx);
  const signUpMany = async (people: Parameters<typeof signUpAs>[1][]) => Promise.all(people.map((person) => signUpAs(ctx, person)));
  women30 = await signUpMany(many(8, { gender: 'F', age: 30, country: US }));
  men40 = await signUpMany(many(8, { gender: 'M', age: 40, country: FRANCE }));
  women50 = await signUpMany(many(6, { gender: 'F', age: 50, country: JAPAN }));
  cats = await ask(author, { question: 'Cats or dogs?', choices: ['Cats', 'Dogs', 'Both'] });
  await answerAll(women30, cats, [1, 1, 1, 2]);
  await answerAll(men40, cats, [2, 2, 2, 3]);
  await answerAll(women50, cats, [1, 3]);
  rating = await ask(author, { type: 'RS', question: 'Rate your city', choices: [] });
  await answerAll(women30, rating, [8]);
  await answerAll(men40, rating, [4]);
  await answerAll(women50, rating, [6]);
});
afterAll(() => ctx.close());

const filtered = (user: TestUser, id: number, body: Record<string, unknown>) => user.api.raw('POST', api.breakdown(id), body);

describe('who may see a breakdown', () => {
  it('answers 404 for an unknown question', async () => {
    for (const reply of [await women30[0].api.raw('GET', api.breakdown(999_999)), await filtered(women30[0], 999_999, {})]) {
      expect(reply.status).toBe(404);
      reply.error();
    }
  });

  it('answers 403 to someone who has not answered the question, and serves them once they have', async () => {
    const question = await ask(author);
    const newcomer = await signUp(ctx);
    const csv = () => newcomer.api.raw('GET', api.breakdownCsv(question));
    for (const reply of [await newcomer.api.raw('GET', api.breakdown(question)), await filtered(newcomer, question, {}), await csv()]) {
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
  });

  it('offers the age defaults when nobody has voted yet', async () => {
    const empty = await ask(author, { question: 'Nobody yet?' });
    const reply = await author.api.raw('GET', api.breakdown(empty));
    expect(reply.parse(breakdownInfoSchema).filters).toMatchObject({ age: { min: 0, max: 999 }, country: [] });
  });
});

describe('a filtered result', () => {
  let question: number;
  beforeAll(async () => {
    // The same people on a question of their own, so that the votes tested are exactly theirs.
    question = await ask(author, { question: 'Tea, coffee or water?', choices: ['Tea', 'Coffee', 'Water'] });
    await answerAll(women30, question, [1, 1, 1, 2]);
    await answerAll(men40, question, [2, 2, 2, 3]);
    await answerAll(women50, question, [1, 3]);
  });

  it('is everyone’s result with no filter, with each percentage’s margin of error and nothing significant', async () => {
    for (const body of [{}, { min_age: '', max_age: '', country: '', gender: '' }, { min_age: 0, max_age: 999 }]) {
      const reply = await filtered(women30[0], question, body);
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
      expect(result.comparison?.rows.map((row) => [row.label, row.percent, row.overall_percent, row.significant])).toEqual([
        ['Tea', 41, 41, false],
        ['Coffee', 36, 36, false],
        ['Water', 23, 23, false],
      ]);
      // 9 of 22: the 95% Wilson interval is 23.3% to 61.3%, 19.0 points either side.
      expect(result.comparison?.rows[0].margin).toBe(19);
    }
  });

  it('counts only the women when filtered by gender, and marks where they differ from the others', async () => {
    const reply = await filtered(women30[0], question, { gender: 'F' });
    const result = reply.parse(breakdownResultSchema);
    // 14 women: 9 tea, 2 coffee, 3 water.
    expect(result.question.result).toEqual({
      count: 14,
      answers: [
        { key: 1, percent: 64 },
        { key: 2, percent: 14 },
        { key: 3, percent: 22 },
      ],
    });
    expect(result.overall.count).toBe(22);
    const rows = result.comparison!.rows;
    // 2 of 14 women chose coffee against 6 of the 8 men: significant. 3 of 14 and 2 of 8 chose water: not.
    expect(rows.map((row) => row.significant)).toEqual([true, true, false]);
    expect(rows[1]).toMatchObject({ label: 'Coffee', percent: 14, overall_percent: 36 });
  });

  it('counts the voters of one country, and of an age range widened to whole bands', async () => {
    const france = (await filtered(women30[0], question, { country: FRANCE })).parse(breakdownResultSchema);
    expect(france.question.result).toEqual({
      count: 8,
      answers: [
        { key: 1, percent: 0 },
        { key: 2, percent: 75 },
        { key: 3, percent: 25 },
      ],
    });

    // 30 to 40 covers the bands 25–34 and 35–44: the women of 30 and the men of 40.
    const ages = (await filtered(women30[0], question, { min_age: 30, max_age: 40 })).parse(breakdownResultSchema);
    expect(ages.ages).toEqual({ min: 25, max: 44 });
    expect(ages.question.result).toEqual({
      count: 16,
      answers: [
        { key: 1, percent: 38 },
        { key: 2, percent: 50 },
        { key: 3, percent: 12 },
      ],
    });
  });

  it('combines the filters', async () => {
    const reply = await filtered(women30[0], question, { gender: 'F', min_age: 45, max_age: 60, country: JAPAN });
    const result = reply.parse(breakdownResultSchema);
    expect(result.question.result).toEqual({
      count: 6,
      answers: [
        { key: 1, percent: 50 },
        { key: 2, percent: 0 },
        { key: 3, percent: 50 },
      ],
    });
    expect(result.ages).toEqual({ min: 45, max: 64 });
  });

  it('is suppressed, with no comparison, when fewer than 5 voters match', async () => {
    for (const body of [{ gender: 'M', min_age: 45 }, { country: 36 }]) {
      const reply = await filtered(women30[0], question, body);
      expectOnlyDeclared(breakdownResultSchema, reply.json());
      const result = reply.parse(breakdownResultSchema);
      expect(result.question.result, JSON.stringify(body)).toEqual({ count: 0, answers: [], suppressed: true });
      expect(result.comparison).toBeNull();
      expect(result.overall.count).toBe(22);
    }
  });

  it('compares the average of a rating with its margin of error', async () => {
    const result = (await filtered(women30[0], rating, { gender: 'F' })).parse(breakdownResultSchema);
    expect(result.question.result?.count).toBe(14);
    expect(result.question.result?.average).toBe(7.14);
    expect(result.question.result?.answers).toContainEqual({ choice: 8, count: 8 });
    expect(result.comparison?.rows).toEqual([]);
    expect(result.comparison?.average).toMatchObject({ value: 7.14, significant: true });
    expect(result.comparison?.average?.margin).toBeCloseTo(0.59, 1);
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
      const reply = await filtered(women30[0], question, body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(reply.error().errors ?? {}), JSON.stringify(body)).toEqual([field]);
    }
  });
});

describe('the breakdown download', () => {
  it('is a CSV attachment of the filtered result beside everyone’s', async () => {
    const reply = await women30[0].api.raw('GET', `${api.breakdownCsv(cats)}?gender=F&min_age=&country=`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/csv/);
    expect(reply.headers['content-disposition']).toBe(`attachment; filename="QID${String(cats).padStart(3, '0')}-breakdown.csv"`);
    const lines = reply.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe('question_id,question,filter,answer,votes,percent,margin_of_error,everyone_votes,everyone_percent,significant,note');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(new RegExp(`^${cats},Cats or dogs\\?,women,Cats,9,64,`));
  });

  it('says when too few voters match, and shows nothing of them', async () => {
    const reply = await women30[0].api.raw('GET', `${api.breakdownCsv(cats)}?country=36`);
    const lines = reply.text.trimEnd().split('\r\n');
    expect(lines).toEqual([lines[0], `${cats},Cats or dogs?,Australia,,,,,,,,too few voters match to show results`]);
  });

  it('validates its filter like the form', async () => {
    const reply = await women30[0].api.raw('GET', `${api.breakdownCsv(cats)}?min_age=60&max_age=20`);
    expect(reply.status).toBe(400);
    expect(reply.error().errors).toHaveProperty('min_age');
  });
});
