import { api, categoryListSchema, countryListSchema, quizListSchema, statsSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, createTestApp, signUp, type TestContext } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

describe('countries', () => {
  it('are the ISO 3166-1 list with numeric codes as ids and alpha-2 codes, by name, for anyone', async () => {
    const reply = await client(ctx.app).raw('GET', api.countries);
    expect(reply.status).toBe(200);
    const countries = reply.parse(countryListSchema);
    expect(countries.length).toBeGreaterThanOrEqual(245);
    expect(countries.length).toBeLessThanOrEqual(255);
    expect(countries).toEqual(
      expect.arrayContaining([
        { id: 250, code: 'FR', name: 'France' },
        { id: 826, code: 'GB', name: 'United Kingdom' },
        { id: 4, code: 'AF', name: 'Afghanistan' },
      ]),
    );
    expect(new Set(countries.map((country) => country.id)).size).toBe(countries.length);
    expect(
      countries.every((country) => Number.isInteger(country.id) && country.id > 0 && country.name.length > 0),
    ).toBe(true);
    // In alphabetical order as a reader expects it, accents and all.
    const names = countries.map((country) => country.name);
    expect(names).toEqual([...names].sort(new Intl.Collator('en').compare));
    expect(names.slice(0, 3)).toEqual(['Afghanistan', 'Åland Islands', 'Albania']);
    expect(names.indexOf('Türkiye')).toBeLessThan(names.indexOf('Turkmenistan'));
  });
});

describe('categories', () => {
  it('are the dozen seeded topics, by id, for anyone', async () => {
    const reply = await client(ctx.app).raw('GET', api.categories);
    expect(reply.status).toBe(200);
    const categories = reply.parse(categoryListSchema);
    expect(categories).toHaveLength(12);
    expect(categories.slice(0, 3)).toEqual([
      { id: 1, name: 'Politics' },
      { id: 2, name: 'Sports' },
      { id: 3, name: 'Technology' },
    ]);
    expect(categories.map((category) => category.id)).toEqual(Array.from({ length: 12 }, (_, index) => index + 1));
  });
});

describe('the quiz', () => {
  it('lists MC questions without results, each strict item with its expected key and the others with none', async () => {
    const reply = await client(ctx.app).raw('GET', api.quizes);
    expect(reply.status).toBe(200);
    const quiz = reply.parse(quizListSchema);
    expect(quiz.length).toBeGreaterThanOrEqual(2);
    const strict = quiz.filter((item) => item.strict);
    expect(strict.length).toBeGreaterThanOrEqual(1);
    expect(quiz.filter((item) => !item.strict).length).toBeGreaterThanOrEqual(1);
    for (const item of quiz) {
      expect(item.question).toMatchObject({
        type: 'MC',
        result: null,
        answer: null,
        liked: false,
        passed: false,
        owner: false,
      });
      if (item.strict) {
        const keys = Array.isArray(item.question.choices) ? item.question.choices.map((choice) => choice.key) : [];
        expect(keys).toContain(item.answer);
      } else {
        expect(item.answer).toBeNull();
      }
    }
  });

  it('is the same for someone signed in who answered it, still without results', async () => {
    const anonymous = await client(ctx.app).get(api.quizes, quizListSchema);
    const user = await signUp(ctx, {
      quiz: anonymous.map((item) => ({ question: item.question.id, choice: item.answer ?? 1 })),
    });
    expect((await user.api.get(api.myStats, statsSchema)).answer).toBe(anonymous.length);
    const signedIn = await user.api.get(api.quizes, quizListSchema);
    expect(
      signedIn.map((item) => [item.question.id, item.question.result, item.question.answer, item.answer, item.strict]),
    ).toEqual(anonymous.map((item) => [item.question.id, null, null, item.answer, item.strict]));
  });
});
