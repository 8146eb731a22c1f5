import {
  answerBodySchema,
  api,
  blockedSchema,
  questionSchema,
  RELATE_PAIRS_PER_QUESTION,
  relateBodySchema,
  relatePairSchema,
  relateResultSchema,
  type Result,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { percentages, type QuestionKind } from '../../views/results.js';
import type { Voter } from '../../views/viewer-states.js';
import {
  answerAll,
  answerNoiseSd,
  castVotes,
  createPeople,
  createQuestions,
  csvRecords,
  expectOnlyDeclared,
  many,
  parseCsv,
  releasedRow,
  US,
} from '../../../test/insights.js';

let ctx: TestContext;
let author: TestUser;
/** Someone who answered every question, and so may relate any two. */
let asker: TestUser;
let morning: Voter[];
let evening: Voter[];

interface Asked {
  id: number;
  kind: QuestionKind;
}
const choice = (keys: number): QuestionKind => ({
  type: 'MC',
  keys: Array.from({ length: keys }, (_, index) => index + 1),
});

let drink: Asked;
let time: Asked;
let rating: Asked;

// Made in the database: of 1,000 morning people, 200 drink tea and 800 coffee, and rate mornings
// 8 or 9; of 1,000 evening people, 500 tea and 500 water, and rate mornings 3 or 4.
beforeAll(async () => {
  ctx = await createTestApp();
  author = await signUp(ctx);
  asker = await signUp(ctx);
  morning = await createPeople(ctx, many(1_000, { gender: 'F', age: 30, country: US }));
  evening = await createPeople(ctx, many(1_000, { gender: 'M', age: 40, country: US }));
  drink = {
    id: await ask(author, { question: 'Tea, coffee or water?', choices: ['Tea', 'Coffee', 'Water'] }),
    kind: choice(3),
  };
  time = {
    id: await ask(author, { question: 'Morning or evening person?', choices: ['Morning', 'Evening'] }),
    kind: choice(2),
  };
  rating = {
    id: await ask(author, { type: 'RS', question: 'Rate mornings', choices: [] }),
    kind: { type: 'RS', min: 1, max: 10 },
  };
  await castVotes(ctx, [
    ...morning.map((voter, index) => ({ questionId: drink.id, voter, choice: index % 5 === 0 ? 1 : 2 })),
    ...evening.map((voter, index) => ({ questionId: drink.id, voter, choice: index % 2 === 0 ? 1 : 3 })),
    ...morning.map((voter) => ({ questionId: time.id, voter, choice: 1 })),
    ...evening.map((voter) => ({ questionId: time.id, voter, choice: 2 })),
    ...morning.map((voter, index) => ({ questionId: rating.id, voter, choice: 8 + (index % 2) })),
    ...evening.map((voter, index) => ({ questionId: rating.id, voter, choice: 3 + (index % 2) })),
  ]);
  for (const question of [drink, time, rating]) await answerAll([asker], question.id, [1]);
});
afterAll(() => ctx.close());

/** The result a row's released counts show. */
function expectReleased(result: Result, released: number[], kind: QuestionKind, source: string): void {
  expect(result.count, source).toBe(released.reduce((sum, votes) => sum + votes, 0));
  if (kind.type === 'MC')
    expect(result.answers, source).toEqual(
      kind.keys.map((key, index) => ({ key, percent: percentages(released)[index] })),
    );
  else expect(result.answers, source).toEqual(released.map((votes, index) => ({ choice: index + 1, count: votes })));
}

describe('who may relate two questions', () => {
  it('answers 404 when either question is unknown', async () => {
    for (const [a, b] of [
      [999_999, time.id],
      [drink.id, 999_999],
    ]) {
      const reply = await asker.api.raw('GET', api.relate(a, b));
      expect(reply.status).toBe(404);
      reply.error();
      expect((await asker.api.raw('POST', api.relate(a, b), { choice: 1 })).status).toBe(404);
    }
  });

  it('answers 400 when the second question is not multiple choice, or is the first', async () => {
    for (const [a, b] of [
      [drink.id, rating.id],
      [drink.id, drink.id],
    ]) {
      const reply = await asker.api.raw('GET', api.relate(a, b));
      expect(reply.status).toBe(400);
      expect(Object.keys(reply.error().errors ?? {})).toEqual(['b']);
    }
  });

  it('answers 403 until the caller has answered both, even to their author', async () => {
    const [one, other] = [
      await ask(author, { question: 'First of two?' }),
      await ask(author, { question: 'Second of two?' }),
    ];
    const newcomer = await signUp(ctx);
    expect((await newcomer.api.raw('GET', api.relate(one, other))).status).toBe(403);
    await newcomer.api.post(api.answer(one), answerBodySchema, { choice: 1 }, questionSchema);
    const reply = await newcomer.api.raw('GET', api.relate(one, other));
    expect(reply.status).toBe(403);
    expect(reply.error().message).toBe('Answer both questions to relate them');
    expect((await newcomer.api.raw('POST', api.relate(one, other), { choice: 1 })).status).toBe(403);
    expect((await newcomer.api.raw('GET', api.relateCsv(one, other))).status).toBe(403);
    expect((await author.api.raw('GET', api.relate(one, other))).status).toBe(403);
  });

  it('answers 403 across a block with either author', async () => {
    const blocked = await signUp(ctx);
    const [question, other] = [
      await ask(author, { question: 'Blocked soon?' }),
      await ask(author, { question: 'Still there?' }),
    ];
    await answerAll([blocked], question, [1]);
    await answerAll([blocked], other, [1]);
    await author.api.post(api.ban(blocked.id), blockedSchema);
    expect((await blocked.api.raw('GET', api.relate(question, other))).status).toBe(403);
  });
});

describe('relating two questions', () => {
  it('gives both questions and how strongly their answers are linked, from the release', async () => {
    const reply = await asker.api.raw('GET', api.relate(drink.id, time.id));
    expect(reply.status).toBe(200);
    expectOnlyDeclared(relatePairSchema, reply.json());
    const { first, second, association, privacy } = reply.parse(relatePairSchema);
    expect([first.id, second.id]).toEqual([drink.id, time.id]);
    expect(first.answer).toEqual({ choice: 1 });
    const [mornings, evenings] = [await releasedRow(ctx, drink, time, 1), await releasedRow(ctx, drink, time, 2)];
    expect(privacy).toEqual({
      first_counted: mornings.firstCounted,
      second_counted: mornings.secondCounted,
      count_sd: Math.round(mornings.countSd * 100) / 100,
    });
    // The exact table gives χ² 1,428.6 and V 0.845 (scipy.stats.chi2_contingency([[200, 800, 0], [500, 0, 500]])); the
    // noise moves them a little.
    expect(association).toMatchObject({
      n: [...mornings.released, ...evenings.released].reduce((sum, votes) => sum + votes, 0),
      df: 2,
      significant: true,
      strength: 'strong',
    });
    expect(Math.abs(association!.cramers_v - 0.845)).toBeLessThan(0.2);
    // The cell furthest above independence: morning coffee, or with the noise evening water.
    expect(association!.summary).toMatch(
      /^"(Morning|Evening)" voters chose "(Coffee|Water)" \d+% of the time, against \d+% of the others who answered both: a strong link\.$/,
    );
  });

  it('gives the first question’s result among the voters of one choice of the second, as released', async () => {
    for (const key of [1, 2]) {
      const reply = await asker.api.raw('POST', api.relate(drink.id, time.id), { choice: key });
      expect(reply.status).toBe(200);
      expectOnlyDeclared(relateResultSchema, reply.json());
      const { question, overall, privacy, comparison } = reply.parse(relateResultSchema);
      const row = await releasedRow(ctx, drink, time, key);
      expect(row.shown).toBe(true);
      expectReleased(question.result!, row.released, drink.kind, `choice ${key}`);
      // Beside everyone who answered the first question, with margins that count the noise: morning people drink coffee
      // (80% against 40%).
      expect(comparison?.rows.map((line) => line.label)).toEqual(['Tea', 'Coffee', 'Water']);
      expect(comparison!.rows.every((line) => line.margin > 0)).toBe(true);
      expect(comparison!.rows[1].significant).toBe(true);
      expect(privacy?.first_counted).toBe(row.firstCounted);
      // Everyone's result is the question's own, exact.
      expect(overall.count).toBe(2_001);
    }
  });

  it('relates the other way round too, from the same release', async () => {
    const coffee = await asker.api.post(
      api.relate(time.id, drink.id),
      relateBodySchema,
      { choice: 2 },
      relateResultSchema,
    );
    expectReleased(
      coffee.question.result!,
      (await releasedRow(ctx, time, drink, 2)).released,
      time.kind,
      'coffee drinkers',
    );
    expect(coffee.question.result!.answers[0]).toMatchObject({ key: 1 });
    // Every coffee drinker is a morning person; the noise in the evening people's cell moves that by a few points.
    expect((coffee.question.result!.answers[0] as { percent: number }).percent).toBeGreaterThan(70);
  });

  it('relates a rating to a choice with the distribution and average of each choice’s voters', async () => {
    const { question } = await asker.api.post(
      api.relate(rating.id, time.id),
      relateBodySchema,
      { choice: 2 },
      relateResultSchema,
    );
    expectReleased(
      { ...question.result!, average: undefined },
      (await releasedRow(ctx, rating, time, 2)).released,
      rating.kind,
      'evening people',
    );
    // 3.5 exactly; the noise in each of the ten values moves the average of 1,000 by about 0.8.
    expect(question.result!.average!).toBeLessThan(7);
    const { association } = await asker.api.get(api.relate(rating.id, time.id), relatePairSchema);
    // Exactly, V is 1. The noise a pair's cell gets (count_sd about 110 here) spreads votes over the
    // eight empty values too, which takes V in 25 runs from 0.51 to 0.997: strong, at the least moderate.
    expect(association).toMatchObject({ significant: true, strength: expect.stringMatching(/^(strong|moderate)$/) });
    expect(association!.summary).toMatch(
      /^"(Morning|Evening)" voters gave an average of [\d.]+, against [\d.]+ for the others who answered both: a (strong|moderate) link\.$/,
    );
  });

  it('counts the people who answered both since, once they are as many as those counted before', async () => {
    const before = await releasedRow(ctx, drink, time, 1);
    const late = await createPeople(ctx, many(2_100, { gender: 'F', age: 20, country: US }));
    await castVotes(ctx, [
      ...late.map((voter) => ({ questionId: drink.id, voter, choice: 3 })),
      ...late.map((voter) => ({ questionId: time.id, voter, choice: 1 })),
    ]);
    const { question, privacy } = await asker.api.post(
      api.relate(drink.id, time.id),
      relateBodySchema,
      { choice: 1 },
      relateResultSchema,
    );
    const after = await releasedRow(ctx, drink, time, 1);
    expect(privacy?.first_counted).toBeGreaterThan(before.firstCounted);
    expect(after.exact[2] - before.exact[2]).toBeGreaterThan(1_000);
    expectReleased(question.result!, after.released, drink.kind, 'after');
  });

  it('refuses a choice the second question does not offer', async () => {
    for (const body of [{ choice: 3 }, { choice: 0 }, { choice: 1.5 }, { choice: 'one' }, {}]) {
      const reply = await asker.api.raw('POST', api.relate(drink.id, time.id), body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(reply.error().errors ?? {})).toEqual(['choice']);
    }
  });

  it('shows a choice’s voters only when their noisy count says enough', async () => {
    const rare = await ask(author, { question: 'Which season?', choices: ['Summer', 'Winter', 'Autumn'] });
    // 1,000 summer, 997 winter and 3 autumn.
    await castVotes(
      ctx,
      [...morning, ...evening].map((voter, index) => ({
        questionId: rare,
        voter,
        choice: index < 3 ? 3 : (index % 2) + 1,
      })),
    );
    await answerAll([asker], rare, [1]);
    const season = { id: rare, kind: choice(3) };
    for (const key of [1, 2, 3]) {
      const { question } = await asker.api.post(
        api.relate(drink.id, rare),
        relateBodySchema,
        { choice: key },
        relateResultSchema,
      );
      const row = await releasedRow(ctx, drink, season, key);
      expect(question.result?.suppressed ?? false, `choice ${key}`).toBe(!row.shown);
      if (key < 3) expect(row.shown).toBe(true);
    }
  });

  it(`releases a question in at most ${RELATE_PAIRS_PER_QUESTION} pairs, then says so`, async () => {
    const hub = await ask(author, { question: 'Related to many?', choices: ['Yes', 'No'] });
    const others = await createQuestions(
      ctx,
      author,
      Array.from({ length: RELATE_PAIRS_PER_QUESTION + 1 }, (_, index) => `Related ${index}?`),
      ['Yes', 'No'],
    );
    for (const question of [hub, ...others]) await answerAll([asker], question, [1]);
    for (const question of others.slice(0, RELATE_PAIRS_PER_QUESTION))
      expect((await asker.api.get(api.relate(hub, question), relatePairSchema)).privacy).not.toBeNull();
    const last = others[RELATE_PAIRS_PER_QUESTION];
    expect(await asker.api.get(api.relate(hub, last), relatePairSchema)).toMatchObject({
      association: null,
      privacy: null,
    });
    const result = await asker.api.post(api.relate(last, hub), relateBodySchema, { choice: 1 }, relateResultSchema);
    expect(result).toMatchObject({ question: { result: { count: 0, answers: [], suppressed: true } }, privacy: null });
    const csv = parseCsv((await asker.api.raw('GET', api.relateCsv(hub, last))).text);
    expect(csv.slice(1).map((line) => line.at(-1))).toEqual(
      Array(2).fill(
        'not released: a question of the pair has been related to as many others as its privacy budget allows',
      ),
    );
  });
});

describe('the relate download', () => {
  it('is a CSV attachment of every choice’s voters, or of one, as released', async () => {
    const all = await asker.api.raw('GET', api.relateCsv(drink.id, time.id));
    expect(all.status).toBe(200);
    expect(all.headers['content-type']).toMatch(/^text\/csv/);
    expect(all.headers['content-disposition']).toMatch(/^attachment; filename="QID\d{3,}-QID\d{3,}-relate\.csv"$/);
    const [header, ...lines] = parseCsv(all.text);
    expect(header.join(',')).toBe(
      'first_question_id,first_question,second_question_id,second_question,second_answer,answer,votes,noise_sd,percent,margin_of_error,everyone_votes,everyone_percent,significant,note',
    );
    // Three drinks for each of the two choices.
    expect(lines).toHaveLength(6);
    const mornings = await releasedRow(ctx, drink, time, 1);
    expect(csvRecords(all.text)[1]).toMatchObject({
      first_question_id: String(drink.id),
      second_question_id: String(time.id),
      second_answer: 'Morning',
      answer: 'Coffee',
      votes: String(mornings.released[1]),
      noise_sd: answerNoiseSd(mornings.answerSd),
    });

    const one = await asker.api.raw('GET', `${api.relateCsv(drink.id, time.id)}?choice=2`);
    expect(parseCsv(one.text)).toHaveLength(4);
  });

  it('refuses a choice the second question does not offer', async () => {
    const reply = await asker.api.raw('GET', `${api.relateCsv(drink.id, time.id)}?choice=7`);
    expect(reply.status).toBe(400);
    expect(reply.error().errors).toHaveProperty('choice');
  });
});
