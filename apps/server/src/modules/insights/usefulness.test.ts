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
 * about half women, in 3 countries, aged 18 to 80. Each gender carries noise of at most 8 voters in
 * its count, each age band and country none (who voted, and their ages and countries, are
 * public), every group of 40 or more is shown, and relate's choices carry at most 12 at 400
 * shared voters.
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
  it('carries at most 8 voters of noise in each gender, none in an age band or country, and shows every such group of 40 or more', async () => {
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
      expect(privacy.count_sd, JSON.stringify(filter)).toBeLessThanOrEqual(filter.gender ? 8 : 0);
      // The release counts the first 384 votes: a group of 40 has about 38 of them, 5 sds of its noise.
      expect(privacy.counted).toBe(384);
      if (voters(filter) >= 40) expect(question.result?.suppressed, JSON.stringify(filter)).not.toBe(true);
    }
  });

  it('shows each attribute’s whole split at once, with margins, and women cooking more than men', async () => {
    const { splits } = await asker.api.get(api.breakdown(first), breakdownInfoSchema);
    expect(splits.gender.map((group) => group.label)).toEqual(['Female', 'Male']);
    expect(splits.gender.every((group) => group.shown && group.count_sd <= 8)).toBe(true);
    // 72% of the women counted cook against 47% of the men: 25 points, where the noise in the difference has an sd of
    // about 10 (each gender's margin is 12 to 15 points).
    const [women, men] = splits.gender.map((group) => group.rows[0].percent);
    expect(women - men).toBeGreaterThan(0);
    expect(splits.age.length).toBeGreaterThanOrEqual(6);
    expect(splits.country.map((group) => group.filter.country).sort()).toEqual([FRANCE, US, JAPAN].sort());
    // A gender of about 190 counted voters is known within 20 points; every group shown says how well it is known.
    for (const group of splits.gender) expect(group.rows.every((row) => row.margin > 0 && row.margin < 20)).toBe(true);
    for (const group of [...splits.age, ...splits.country].filter((group) => group.shown)) {
      expect(group.rows.every((row) => row.margin > 0)).toBe(true);
    }
  });
});

describe('relate on 400 shared voters', () => {
  it('carries at most 12 voters of noise in each choice’s voters, and shows them side by side', async () => {
    const pair = await asker.api.get(api.relate(first, second), relatePairSchema);
    // Related once all 400 had voted: one epoch of them all, √(1.53 × 47.1) = 8.5.
    expect(pair.privacy).toMatchObject({ first_counted: 400, second_counted: 400 });
    expect(pair.privacy!.count_sd).toBeLessThanOrEqual(12);
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

  it('carries at most 12 too when the pair was related from its first shared voters on', async () => {
    const walks = await ask(asker, { question: 'Do you walk to work?', choices: ['Yes', 'No'] });
    const cycles = await ask(asker, { question: 'Do you own a bike?', choices: ['Yes', 'No'] });
    for (const question of [walks, cycles])
      await asker.api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
    // Related after each doubling of the people who answered both: the most epochs 400 people make.
    let voted = 0;
    for (const upTo of [31, 63, 127, 255, 399]) {
      await castVotes(
        ctx,
        people.slice(voted, upTo).flatMap((voter, index) => [
          { questionId: walks, voter, choice: (voted + index) % 3 === 0 ? 1 : 2 },
          { questionId: cycles, voter, choice: (voted + index) % 2 === 0 ? 1 : 2 },
        ]),
      );
      voted = upTo;
      await asker.api.get(api.relate(walks, cycles), relatePairSchema);
    }
    const pair = await asker.api.get(api.relate(walks, cycles), relatePairSchema);
    // Four epochs, of 32, 32, 64 and 128 people, decoded from the stream: √(2.97 × 47.1) = 11.8.
    expect(pair.privacy).toMatchObject({ first_counted: 256, second_counted: 256 });
    expect(pair.privacy!.count_sd).toBeLessThanOrEqual(12);
  });
});
