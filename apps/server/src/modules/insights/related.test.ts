import { answerBodySchema, api, passedSchema, questionSchema, relatedListSchema, type RelatedQuestion, relatePairSchema } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { answerAll, expectOnlyDeclared, seededRandom } from './testing.js';

let ctx: TestContext;
let author: TestUser;
let voters: TestUser[];
let researcher: TestUser;
/** Yes or no, at random; the questions below follow it more or less closely. */
let base: number;
/** Multiple-choice questions whose answers agree with the base question's, each less often than the one before. */
let followers: number[];
/** A rating that follows the base question closely: not multiple choice, so never offered. */
let rating: number;
/** A question that follows it just as closely, answered by too few to test. */
let fewAnswers: number;
/** A question answered at random, and others answered at random too. */
let noise: number;
let noiseOthers: number[];

const VOTERS = 60;
const AGREEMENT = [0.97, 0.93, 0.9, 0.86, 0.83, 0.79, 0.75];

beforeAll(async () => {
  ctx = await createTestApp();
  const random = seededRandom(11);
  author = await signUp(ctx);
  voters = await Promise.all(Array.from({ length: VOTERS }, () => signUp(ctx)));
  researcher = voters[0];
  const yesNo = { choices: ['Yes', 'No'] };
  base = await ask(author, { question: 'Do you cook most days?', ...yesNo });
  followers = [];
  for (let index = 0; index < AGREEMENT.length; index += 1) followers.push(await ask(author, { question: `Do you enjoy food shopping ${index}?`, ...yesNo }));
  rating = await ask(author, { type: 'RS', question: 'How much do you like cooking?', choices: [] });
  fewAnswers = await ask(author, { question: 'Do you own a cookbook?', ...yesNo });
  noise = await ask(author, { question: 'Pick a number', choices: ['One', 'Two', 'Three'] });
  noiseOthers = [];
  for (let index = 0; index < 15; index += 1) noiseOthers.push(await ask(author, { question: `Pick a letter ${index}`, choices: ['A', 'B', 'C'] }));

  const other = (choice: number) => 3 - choice;
  for (const [index, voter] of voters.entries()) {
    const cooks = random() < 0.5 ? 1 : 2;
    const votes: [number, number][] = [
      [base, cooks],
      ...followers.map((id, follower): [number, number] => [id, random() < AGREEMENT[follower] ? cooks : other(cooks)]),
      [rating, cooks === 1 ? 8 + Math.floor(random() * 3) : 1 + Math.floor(random() * 3)],
      [noise, 1 + Math.floor(random() * 3)],
      ...noiseOthers.map((id): [number, number] => [id, 1 + Math.floor(random() * 3)]),
    ];
    if (index < 20) votes.push([fewAnswers, cooks]);
    for (const [question, choice] of votes) await voter.api.post(api.answer(question), answerBodySchema, { choice }, questionSchema);
  }
}, 120_000);
afterAll(() => ctx.close());

async function relatedTo(user: TestUser, question: number): Promise<RelatedQuestion[]> {
  const reply = await user.api.raw('GET', api.related(question));
  expect(reply.status).toBe(200);
  expectOnlyDeclared(relatedListSchema, reply.json());
  return reply.parse(relatedListSchema).related;
}

async function associationOf(first: number, second: number) {
  const association = (await researcher.api.get(api.relate(first, second), relatePairSchema)).association;
  expect(association, `${first} with ${second}`).not.toBeNull();
  return association!;
}

describe('related questions', () => {
  it('lists at most 5 multiple-choice questions, the most strongly linked first, with the figures relate shows', async () => {
    const related = await relatedTo(researcher, base);
    expect(related).toHaveLength(5);
    const ids = related.map((entry) => entry.question.id);
    for (const id of ids) expect(followers).toContain(id);
    const strengths = related.map((entry) => entry.cramers_v);
    expect(strengths).toEqual([...strengths].sort((a, b) => b - a));
    for (const entry of related) {
      const association = await associationOf(base, entry.question.id);
      expect(entry).toMatchObject({ shared_voters: VOTERS, cramers_v: association.cramers_v, p_value: association.p_value });
      expect(entry.q_value).toBeLessThan(0.05);
      expect(entry.q_value).toBeGreaterThanOrEqual(entry.p_value);
    }
    // The followers left out are no more strongly linked than the weakest one listed.
    for (const id of followers.filter((follower) => !ids.includes(follower))) {
      expect((await associationOf(base, id)).cramers_v).toBeLessThanOrEqual(Math.min(...strengths));
    }
  });

  it('offers no rating or number, and no question too few people answered both of', async () => {
    const ids = (await relatedTo(researcher, base)).map((entry) => entry.question.id);
    // Both follow the base question as closely as the strongest follower does.
    expect((await associationOf(rating, base)).strength).toBe('strong');
    expect(ids).not.toContain(rating);
    expect(ids).not.toContain(fewAnswers);
  });

  it('offers nothing for a question answered at random, though some pairs pass the test by chance', async () => {
    const chance = await Promise.all(noiseOthers.map((id) => associationOf(noise, id)));
    // Tested alone, some of the 15 pairs look significant; corrected for testing them all, none is.
    expect(chance.filter((association) => association.p_value < 0.05).length).toBeGreaterThan(0);
    expect(await relatedTo(researcher, noise)).toEqual([]);
  });

  it('leaves out what the viewer passed, and answers 403 before they answer the question', async () => {
    const viewer = await signUp(ctx);
    expect((await viewer.api.raw('GET', api.related(base))).status).toBe(403);
    await viewer.api.post(api.answer(base), answerBodySchema, { choice: 1 }, questionSchema);
    const strongest = (await relatedTo(viewer, base))[0].question.id;
    await viewer.api.post(api.pass(strongest), passedSchema);
    const ids = (await relatedTo(viewer, base)).map((entry) => entry.question.id);
    expect(ids).not.toContain(strongest);
    expect(ids.length).toBeGreaterThan(0);
  });
});

describe('related questions kept', () => {
  it('are found again once their 10 minutes are over, not before', async () => {
    const asked = await ask(author, { question: 'Do you cook with friends?', choices: ['Yes', 'No'] });
    await answerAll(voters, asked, [1, 2]);
    const before = await relatedTo(researcher, asked);
    // Answered by everyone as they answered the question asked: as strongly linked as can be.
    const echo = await ask(author, { question: 'Do you eat with friends?', choices: ['Yes', 'No'] });
    await answerAll(voters, echo, [1, 2]);
    expect(await relatedTo(researcher, asked)).toEqual(before);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60_000 });
    try {
      expect((await relatedTo(researcher, asked))[0]).toMatchObject({ question: { id: echo }, shared_voters: VOTERS, cramers_v: 1 });
    } finally {
      vi.useRealTimers();
    }
  });
});
