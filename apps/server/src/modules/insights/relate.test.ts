import { answerBodySchema, api, blockedSchema, questionSchema, relateBodySchema, relatePairSchema, relateResultSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { answerAll, expectOnlyDeclared } from './testing.js';

let ctx: TestContext;
let author: TestUser;
let morning: TestUser[];
let evening: TestUser[];
/** Tea, coffee or water. */
let drink: number;
/** Morning or evening person. */
let time: number;
/** A rating of mornings. */
let rating: number;

// Of 20 morning people, 4 drink tea and 16 coffee; of 20 evening people, 10 tea and 10 water.
beforeAll(async () => {
  ctx = await createTestApp();
  author = await signUp(ctx);
  morning = await Promise.all(Array.from({ length: 20 }, () => signUp(ctx)));
  evening = await Promise.all(Array.from({ length: 20 }, () => signUp(ctx)));
  drink = await ask(author, { question: 'Tea, coffee or water?', choices: ['Tea', 'Coffee', 'Water'] });
  time = await ask(author, { question: 'Morning or evening person?', choices: ['Morning', 'Evening'] });
  rating = await ask(author, { type: 'RS', question: 'Rate mornings', choices: [] });
  await answerAll(morning, drink, [1, 2, 2, 2, 2]);
  await answerAll(evening, drink, [1, 3]);
  await answerAll(morning, time, [1]);
  await answerAll(evening, time, [2]);
  await answerAll(morning, rating, [9, 8]);
  await answerAll(evening, rating, [3, 4]);
});
afterAll(() => ctx.close());

const asker = () => morning[0];

describe('who may relate two questions', () => {
  it('answers 404 when either question is unknown', async () => {
    for (const [a, b] of [
      [999_999, time],
      [drink, 999_999],
    ]) {
      const reply = await asker().api.raw('GET', api.relate(a, b));
      expect(reply.status).toBe(404);
      reply.error();
      expect((await asker().api.raw('POST', api.relate(a, b), { choice: 1 })).status).toBe(404);
    }
  });

  it('answers 400 when the second question is not multiple choice, or is the first', async () => {
    for (const [a, b] of [
      [drink, rating],
      [drink, drink],
    ]) {
      const reply = await asker().api.raw('GET', api.relate(a, b));
      expect(reply.status).toBe(400);
      expect(Object.keys(reply.error().errors ?? {})).toEqual(['b']);
    }
  });

  it('answers 403 until the caller has answered both, even to their author', async () => {
    // Questions of their own, so that the newcomer's vote changes none of the counts tested below.
    const [one, other] = [await ask(author, { question: 'First of two?' }), await ask(author, { question: 'Second of two?' })];
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
    const [question, other] = [await ask(author, { question: 'Blocked soon?' }), await ask(author, { question: 'Still there?' })];
    await blocked.api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
    await blocked.api.post(api.answer(other), answerBodySchema, { choice: 1 }, questionSchema);
    await author.api.post(api.ban(blocked.id), blockedSchema);
    expect((await blocked.api.raw('GET', api.relate(question, other))).status).toBe(403);
  });
});

describe('relating two questions', () => {
  it('gives both questions and how strongly their answers are linked', async () => {
    const reply = await asker().api.raw('GET', api.relate(drink, time));
    expect(reply.status).toBe(200);
    expectOnlyDeclared(relatePairSchema, reply.json());
    const { first, second, association } = reply.parse(relatePairSchema);
    expect([first.id, second.id]).toEqual([drink, time]);
    expect(first.answer).toEqual({ choice: 1 });
    // scipy.stats.chi2_contingency([[4, 16, 0], [10, 0, 10]], correction=False)
    expect(association).toMatchObject({ n: 40, df: 2, significant: true, strength: 'strong' });
    expect(association!.chi_square).toBeCloseTo(28.571, 3);
    expect(association!.p_value).toBeCloseTo(6.248749509463087e-7, 15);
    expect(association!.cramers_v).toBeCloseTo(0.845, 3);
    expect(association!.summary).toBe('"Morning" voters chose "Coffee" 80% of the time, against 0% of the others who answered both: a strong link.');
  });

  it('gives the first question’s result among the voters of one choice of the second, beside everyone’s', async () => {
    const reply = await asker().api.raw('POST', api.relate(drink, time), { choice: 1 });
    expect(reply.status).toBe(200);
    expectOnlyDeclared(relateResultSchema, reply.json());
    const { question, overall, association } = reply.parse(relateResultSchema);
    expect(question.id).toBe(drink);
    expect(question.result).toEqual({
      count: 20,
      answers: [
        { key: 1, percent: 20 },
        { key: 2, percent: 80 },
        { key: 3, percent: 0 },
      ],
    });
    expect(overall.count).toBeGreaterThanOrEqual(40);
    expect(association?.n).toBe(40);
  });

  it('relates the other way round too, with the same test', async () => {
    const pair = await asker().api.get(api.relate(time, drink), relatePairSchema);
    expect(pair.association?.p_value).toBeCloseTo(6.248749509463087e-7, 15);
    const coffee = await asker().api.post(api.relate(time, drink), relateBodySchema, { choice: 2 }, relateResultSchema);
    expect(coffee.question.result).toEqual({
      count: 16,
      answers: [
        { key: 1, percent: 100 },
        { key: 2, percent: 0 },
      ],
    });
  });

  it('relates a rating to a choice with the distribution and average of each choice’s voters', async () => {
    const { question } = await asker().api.post(api.relate(rating, time), relateBodySchema, { choice: 2 }, relateResultSchema);
    expect(question.result).toMatchObject({ count: 20, average: 3.5 });
    expect(question.result?.answers).toContainEqual({ choice: 3, count: 10 });
    const { association } = await asker().api.get(api.relate(rating, time), relatePairSchema);
    expect(association).toMatchObject({ n: 40, significant: true, strength: 'strong' });
    expect(association!.summary).toMatch(/^"(Morning|Evening)" voters gave an average of (8\.5|3\.5), against (3\.5|8\.5) for the others who answered both: a strong link\.$/);
  });

  it('counts votes cast since it last looked', async () => {
    const late = await signUp(ctx);
    await late.api.post(api.answer(drink), answerBodySchema, { choice: 3 }, questionSchema);
    await asker().api.post(api.relate(drink, time), relateBodySchema, { choice: 1 }, relateResultSchema);
    await late.api.post(api.answer(time), answerBodySchema, { choice: 1 }, questionSchema);
    const { question } = await asker().api.post(api.relate(drink, time), relateBodySchema, { choice: 1 }, relateResultSchema);
    expect(question.result?.count).toBe(21);
    expect(question.result?.answers).toEqual([
      { key: 1, percent: 19 },
      { key: 2, percent: 76 },
      { key: 3, percent: 5 },
    ]);
  });

  it('refuses a choice the second question does not offer', async () => {
    for (const body of [{ choice: 3 }, { choice: 0 }, { choice: 1.5 }, { choice: 'one' }, {}]) {
      const reply = await asker().api.raw('POST', api.relate(drink, time), body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(Object.keys(reply.error().errors ?? {})).toEqual(['choice']);
    }
  });

  it('suppresses the voters of a choice fewer than 5 people made', async () => {
    const rare = await ask(author, { question: 'Which season?', choices: ['Summer', 'Winter', 'Autumn'] });
    // 16 summer, 16 winter and 3 autumn; 5 evening people skip it.
    const choices = [...Array.from({ length: 32 }, (_, index) => (index % 2) + 1), 3, 3, 3];
    await answerAll([...morning, ...evening.slice(0, 15)], rare, choices);
    const reply = await asker().api.raw('POST', api.relate(drink, rare), { choice: 3 });
    expect(reply.parse(relateResultSchema).question.result).toEqual({ count: 0, answers: [], suppressed: true });
    const summer = await asker().api.post(api.relate(drink, rare), relateBodySchema, { choice: 1 }, relateResultSchema);
    expect(summer.question.result?.count).toBe(16);
    // The test leaves out the choice too few made.
    expect(summer.association?.n).toBe(32);
  });

  it('hides one more choice’s voters when the first question’s voters outside those shown would be fewer than 5', async () => {
    const pets = await ask(author, { question: 'Which pet?', choices: ['Cat', 'Dog', 'Fish'] });
    // Everyone who drinks answers but one: 17 cats, 20 dogs and 3 fish. Taking the cat and dog
    // people from everyone's drinks would leave the fish people's and that one person's.
    await answerAll([...morning, ...evening], pets, [...new Array<number>(17).fill(1), ...new Array<number>(20).fill(2), 3, 3, 3]);
    const drinkers = await asker().api.post(api.relate(drink, pets), relateBodySchema, { choice: 2 }, relateResultSchema);
    expect(drinkers.overall.count).toBe(41);
    expect(drinkers.question.result?.count).toBe(20);
    for (const choice of [1, 3]) {
      const reply = await asker().api.raw('POST', api.relate(drink, pets), { choice });
      expect(reply.parse(relateResultSchema).question.result, `choice ${choice}`).toEqual({ count: 0, answers: [], suppressed: true });
    }
    const csv = (await asker().api.raw('GET', api.relateCsv(drink, pets))).text.trimEnd().split('\r\n');
    const hidden = csv.filter((line) => line.endsWith('too few voters match to show results'));
    expect(hidden.map((line) => /Which pet\?,(\w+),/.exec(line)?.[1])).toEqual(['Cat', 'Fish']);
  });

  it('gives no test when fewer than 30 people answered both', async () => {
    const small = await ask(author, { question: 'Few answers?', choices: ['Yes', 'No'] });
    await answerAll(morning.slice(0, 6), small, [1]);
    await answerAll(evening.slice(0, 6), small, [2]);
    const pair = await asker().api.get(api.relate(drink, small), relatePairSchema);
    expect(pair.association).toBeNull();
    const yes = await asker().api.post(api.relate(drink, small), relateBodySchema, { choice: 1 }, relateResultSchema);
    expect(yes.question.result?.count).toBe(6);
  });
});

describe('the relate download', () => {
  it('is a CSV attachment of every choice’s voters, or of one', async () => {
    const all = await asker().api.raw('GET', api.relateCsv(drink, time));
    expect(all.status).toBe(200);
    expect(all.headers['content-type']).toMatch(/^text\/csv/);
    expect(all.headers['content-disposition']).toMatch(/^attachment; filename="QID\d{3,}-QID\d{3,}-relate\.csv"$/);
    const lines = all.text.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'first_question_id,first_question,second_question_id,second_question,second_answer,answer,votes,percent,margin_of_error,everyone_votes,everyone_percent,significant,note',
    );
    // Three drinks for each of the two choices.
    expect(lines).toHaveLength(7);
    expect(lines[2]).toMatch(new RegExp(`^${drink},"Tea, coffee or water\\?",${time},Morning or evening person\\?,Morning,Coffee,\\d+,\\d+,`));

    const one = await asker().api.raw('GET', `${api.relateCsv(drink, time)}?choice=2`);
    expect(one.text.trimEnd().split('\r\n')).toHaveLength(4);
  });

  it('refuses a choice the second question does not offer', async () => {
    const reply = await asker().api.raw('GET', `${api.relateCsv(drink, time)}?choice=7`);
    expect(reply.status).toBe(400);
    expect(reply.error().errors).toHaveProperty('choice');
  });
});
