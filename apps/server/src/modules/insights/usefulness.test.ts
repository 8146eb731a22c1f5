import {
  answerBodySchema,
  api,
  breakdownFilterBodySchema,
  questionSchema,
  breakdownInfoSchema,
  breakdownResultSchema,
  relateBodySchema,
  relatePairSchema,
  relateResultSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, type TestContext, type TestUser } from '../../test/helper.js';
import type { Voter } from '../../views/viewer-states.js';
import { AGE_BANDS } from './ages.js';
import {
  castVotes,
  createPeople,
  FRANCE,
  JAPAN,
  seededNoise,
  seededRandom,
  signUpAs,
  US,
  type Person,
} from '../../../test/insights.js';

/**
 * What breakdown and relate show on a question of the size real communities have: 400 voters,
 * about half women, in 3 countries, aged 18 to 80. Every one-attribute group carries noise of at
 * most 20 voters in its count, every group of 100 or more is shown, and relate's choices carry at
 * most 25 at 400 shared voters.
 */

let ctx: TestContext;
let asker: TestUser;
let people: Voter[];
let persons: Person[];
let first: number;
let second: number;

beforeAll(async () => {
  // The noise of one seed: with another draw, one run in a hundred or so would hide the women's lead.
  ctx = await createTestApp({}, { noiseRandom: seededNoise(400) });
  const random = seededRandom(400);
  const countries = [US, US, FRANCE, JAPAN];
  persons = Array.from({ length: 399 }, () => ({
    gender: random() < 0.5 ? 'F' : 'M',
    age: 18 + Math.floor(random() * 63),
    country: countries[Math.floor(random() * countries.length)],
  }));
  asker = await signUpAs(ctx, { gender: 'F', age: 35, country: US });
  people = await createPeople(ctx, persons);
  first = await ask(asker, { question: 'Do you cook most evenings?', choices: ['Yes', 'No'] });
  second = await ask(asker, { question: 'Do you live in a city?', choices: ['Yes', 'No'] });
  // Women cook more, city dwellers less: real differences to find.
  await castVotes(ctx, [
    ...people.map((voter, index) => ({
      questionId: first,
      voter,
      choice: random() < (persons[index].gender === 'F' ? 0.7 : 0.4) ? 1 : 2,
    })),
    ...people.map((voter) => ({ questionId: second, voter, choice: random() < 0.5 ? 1 : 2 })),
  ]);
  for (const question of [first, second])
    await asker.api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
});
afterAll(() => ctx.close());

describe('breakdown on a question of 400 voters', () => {
  it('carries at most 20 voters of noise in each gender, age band and country, and shows every such group of 100 or more', async () => {
    const filters: Record<string, unknown>[] = [
      { gender: 'F' },
      { gender: 'M' },
      ...AGE_BANDS.slice(1).map((band) => ({ min_age: band.min, max_age: Math.min(band.max, 999) })),
      ...[US, FRANCE, JAPAN].map((country) => ({ country })),
    ];
    const voters = (filter: Record<string, unknown>) =>
      persons.filter(
        (person) =>
          (filter.gender === undefined || person.gender === filter.gender) &&
          (filter.country === undefined || person.country === filter.country) &&
          (filter.min_age === undefined ||
            (person.age >= Number(filter.min_age) && person.age <= Number(filter.max_age))),
      ).length;
    for (const filter of filters) {
      const { question, privacy } = await asker.api.post(
        api.breakdown(first),
        breakdownFilterBodySchema,
        filter,
        breakdownResultSchema,
      );
      expect(privacy.count_sd, JSON.stringify(filter)).toBeLessThanOrEqual(20);
      // The release counts the first 256 votes: a group of 100 has about 64 of them, 5 to 6 sds of its noise.
      expect(privacy.counted).toBe(256);
      if (voters(filter) >= 100) expect(question.result?.suppressed, JSON.stringify(filter)).not.toBe(true);
    }
  });

  it('shows each attribute’s whole split at once, with margins, and women cooking more than men', async () => {
    const { splits } = await asker.api.get(api.breakdown(first), breakdownInfoSchema);
    expect(splits.gender.map((group) => group.label)).toEqual(['Female', 'Male']);
    expect(splits.gender.every((group) => group.shown && group.count_sd <= 20)).toBe(true);
    // 72% of the women counted cook against 47% of the men: 25 points, where the noise in the difference has an sd of
    // about 10 (each gender's margin is 12 to 15 points).
    const [women, men] = splits.gender.map((group) => group.rows[0].percent);
    expect(women - men).toBeGreaterThan(0);
    expect(splits.age.length).toBeGreaterThanOrEqual(6);
    expect(splits.country.map((group) => group.filter.country).sort()).toEqual([FRANCE, US, JAPAN].sort());
    // A gender of 110 to 150 counted voters is known within 20 points; every group shown says how well it is known.
    for (const group of splits.gender) expect(group.rows.every((row) => row.margin > 0 && row.margin < 20)).toBe(true);
    for (const group of [...splits.age, ...splits.country].filter((group) => group.shown)) {
      expect(group.rows.every((row) => row.margin > 0)).toBe(true);
    }
  });
});

describe('relate on 400 shared voters', () => {
  it('carries at most 25 voters of noise in each choice’s voters, and shows them side by side', async () => {
    const pair = await asker.api.get(api.relate(first, second), relatePairSchema);
    expect(pair.privacy!.count_sd).toBeLessThanOrEqual(25);
    expect(pair.choices.map((choice) => [choice.label, choice.shown])).toEqual([
      ['Yes', true],
      ['No', true],
    ]);
    const { question } = await asker.api.post(
      api.relate(first, second),
      relateBodySchema,
      { choice: 1 },
      relateResultSchema,
    );
    expect(question.result?.suppressed).not.toBe(true);
  });
});
