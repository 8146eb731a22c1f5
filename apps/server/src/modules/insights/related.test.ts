import {
  answerBodySchema,
  api,
  passedSchema,
  questionSchema,
  RELATE_PAIRS_PER_QUESTION,
  relatedListSchema,
  type RelatedQuestion,
  relatePairSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import type { Voter } from '../../views/viewer-states.js';
import {
  answerAll,
  castVotes,
  createPeople,
  expectOnlyDeclared,
  many,
  seededRandom,
  US,
} from '../../../test/insights.js';

let ctx: TestContext;
let author: TestUser;
let people: Voter[];
let researcher: TestUser;
/** Yes or no, at random; the questions below follow it more or less closely. */
let base: number;
/** Multiple-choice questions whose answers agree with the base question's, each less often than the one before. */
let followers: number[];
/** A rating that follows it closely: not multiple choice, so never offered. */
let rating: number;
/** Questions answered at random. */
let chance: number[];

const VOTERS = 1_500;
const AGREEMENT = [0.97, 0.93, 0.9, 0.86, 0.83, 0.79, 0.75];

// Made in the database: 1,500 people answer the base question at random, and the others as described.
beforeAll(async () => {
  ctx = await createTestApp();
  const random = seededRandom(11);
  author = await signUp(ctx);
  researcher = await signUp(ctx);
  people = await createPeople(ctx, many(VOTERS, { gender: 'F', age: 30, country: US }));
  const yesNo = { choices: ['Yes', 'No'] };
  base = await ask(author, { question: 'Do you cook most days?', ...yesNo });
  followers = [];
  for (let index = 0; index < AGREEMENT.length; index += 1)
    followers.push(await ask(author, { question: `Do you enjoy food shopping ${index}?`, ...yesNo }));
  rating = await ask(author, { type: 'RS', question: 'How much do you like cooking?', choices: [] });
  chance = [];
  for (let index = 0; index < 3; index += 1)
    chance.push(await ask(author, { question: `Pick a letter ${index}`, choices: ['A', 'B', 'C'] }));

  const other = (choice: number) => 3 - choice;
  await castVotes(
    ctx,
    people.flatMap((voter) => {
      const cooks = random() < 0.5 ? 1 : 2;
      return [
        { questionId: base, voter, choice: cooks },
        ...followers.map((id, follower) => ({
          questionId: id,
          voter,
          choice: random() < AGREEMENT[follower] ? cooks : other(cooks),
        })),
        {
          questionId: rating,
          voter,
          choice: cooks === 1 ? 8 + Math.floor(random() * 3) : 1 + Math.floor(random() * 3),
        },
        ...chance.map((id) => ({ questionId: id, voter, choice: 1 + Math.floor(random() * 3) })),
      ];
    }),
  );
  for (const question of [base, ...followers, rating, ...chance]) await answerAll([researcher], question, [1]);
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
  it('lists the linked multiple-choice questions among those it tests, the most strongly linked first, with the figures relate shows', async () => {
    const related = await relatedTo(researcher, base);
    // It tests the 4 multiple-choice questions most of its latest voters answered: here everyone
    // answered every one, so the first 4 asked, the 4 strongest followers (Cramér's V of 0.7 or
    // more among 1,500 people, far past chance).
    expect(related).toHaveLength(RELATE_PAIRS_PER_QUESTION / 2);
    const ids = related.map((entry) => entry.question.id);
    for (const id of ids) expect(followers).toContain(id);
    const strengths = related.map((entry) => entry.cramers_v);
    expect(strengths).toEqual([...strengths].sort((a, b) => b - a));
    for (const entry of related) {
      // From the same release: the pair's noisy table.
      const association = await associationOf(base, entry.question.id);
      expect(entry).toMatchObject({
        shared_voters: association.n,
        cramers_v: association.cramers_v,
        p_value: association.p_value,
      });
      expect(Math.abs(entry.shared_voters - VOTERS)).toBeLessThan(500);
      expect(entry.q_value).toBeLessThan(0.05);
      expect(entry.q_value).toBeGreaterThanOrEqual(entry.p_value);
    }
    // The strongest follower agrees 97% of the time.
    expect(ids).toContain(followers[0]);
  });

  it('offers no rating, however closely it follows', async () => {
    const ids = (await relatedTo(researcher, base)).map((entry) => entry.question.id);
    expect((await associationOf(rating, base)).strength).toBe('strong');
    expect(ids).not.toContain(rating);
  });

  it('tests as many candidates as half a question’s relate budget, and so opens no more pairs', async () => {
    const question = chance[2];
    const pairs = async () =>
      (
        await ctx.database.db
          .selectFrom('relate_releases')
          .select(['low_id', 'high_id'])
          .where('epoch', '=', 0)
          .where((eb) => eb.or([eb('low_id', '=', question), eb('high_id', '=', question)]))
          .execute()
      ).length;
    expect(await pairs()).toBe(0);
    await relatedTo(researcher, question);
    // Its candidates, answered by everyone: the base question, the 7 followers and 2 other letters, of which the first
    // 4.
    expect(await pairs()).toBe(RELATE_PAIRS_PER_QUESTION / 2);
    // Each pair opened spends 2 of its 16 units of 1/128: half the question's relate budget is left for relates people
    // ask for.
    const budget = await ctx.database.db
      .selectFrom('relate_budgets')
      .select('pairs')
      .where('question_id', '=', question)
      .executeTakeFirstOrThrow();
    expect(budget.pairs).toBe(RELATE_PAIRS_PER_QUESTION);
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
    // People who answer only these two questions, so that each is the other's first candidate.
    const friends = await createPeople(ctx, many(2_000, { gender: 'M', age: 40, country: US }));
    const asked = await ask(author, { question: 'Do you cook with friends?', choices: ['Yes', 'No'] });
    await castVotes(
      ctx,
      friends.map((voter, index) => ({ questionId: asked, voter, choice: (index % 2) + 1 })),
    );
    await answerAll([researcher], asked, [1]);
    const before = await relatedTo(researcher, asked);
    // Answered by everyone as they answered the question asked: as strongly linked as can be.
    const echo = await ask(author, { question: 'Do you eat with friends?', choices: ['Yes', 'No'] });
    await castVotes(
      ctx,
      friends.map((voter, index) => ({ questionId: echo, voter, choice: (index % 2) + 1 })),
    );
    await answerAll([researcher], echo, [1]);
    expect(await relatedTo(researcher, asked)).toEqual(before);

    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 10 * 60_000 });
    try {
      const [first] = await relatedTo(researcher, asked);
      expect(first.question.id).toBe(echo);
      // 1 exactly; the noise in the four cells of a table of 2,000 takes a few hundredths off.
      expect(first.cramers_v).toBeGreaterThan(0.8);
    } finally {
      vi.useRealTimers();
    }
  });
});
