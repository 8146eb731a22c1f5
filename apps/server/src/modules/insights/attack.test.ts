import {
  answerBodySchema,
  api,
  breakdownFilterBodySchema,
  breakdownResultSchema,
  questionSchema,
  type Result,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import type { Voter } from '../../views/viewer-states.js';
import { exploredOf, type ExploredQuestion } from './access.js';
import { AGE_BANDS } from './ages.js';
import { filteredBreakdown } from './breakdown.js';
import { relateTable } from './relate.js';
import { cellIndex, GENDERS } from './segment-tables.js';
import {
  castVotes,
  createPeople,
  createQuestions,
  FRANCE,
  JAPAN,
  many,
  seededRandom,
  signUpAs,
  type Person,
} from '../../../test/insights.js';

/**
 * The attack of fake accounts. The target, a woman of Japan aged 70 or more, is the only such
 * voter of a question among 27 men of France. The attacker makes 4 accounts of women of Japan
 * born in 1950, votes "Yes" with each, asks for the women of Japan aged 65 and over, and reads the
 * target's vote by taking their 4 votes away; through relate, the 4 accounts join the target as
 * the only voters of a rare choice of another question. With exact counts the attacker is always
 * right. Against the private release the attacker is shown its noisy cells as they are, without
 * the suppression of small groups (the strongest position the release can leave them in), over
 * many questions, the target voting each way in turn: the share of right guesses must stay
 * within what the privacy budget allows.
 */

const YES = 1;
const NO = 2;
const TRIALS = 3000;
/**
 * The most right guesses ρ-zCDP allows a test of yes against no on one release: Φ(√(2ρ)/2), 0.599
 * for a breakdown (ρ = 1/8) and 0.535 for a relate pair (ρ = 1/64); the attacker here is held to
 * 0.6 for both. The subtraction attack reads one cell of the release's estimate (a gender, band
 * and country): the target's vote moves that cell's no count minus its yes count by 2, so its
 * true rate is Φ(1/sd) for the sd of the noise in that difference: 6.6 in an epoch of 2 countries
 * and 2 answers, a rate of 0.560, within the bound but near it. Over 3,000 trials (sd 0.009) it
 * passes 0.6 about once in 150,000 runs (over 600 it would once in 40). Through relate the pair's
 * table of 2 × 2 cells gives the difference an sd of 11.3: a rate of 0.535 at most, less once
 * counts below 0 are raised, passing 0.6 less than once in a million runs.
 */
const ALLOWED = 0.6;

const crowd = many(27, { gender: 'M', age: 40, country: FRANCE });
const target: Person = { gender: 'F', age: 75, country: JAPAN };
const sybils = (year: number) => many(4, { gender: 'F', age: year - 1950, country: JAPAN });

let ctx: TestContext;
let author: TestUser;
let crowdVoters: Voter[];
let targetVoter: Voter;
let sybilVoters: Voter[];

beforeAll(async () => {
  ctx = await createTestApp();
  author = await signUp(ctx);
  const people = await createPeople(ctx, [...crowd, target, ...sybils(new Date().getUTCFullYear())]);
  crowdVoters = people.slice(0, crowd.length);
  targetVoter = people[crowd.length];
  sybilVoters = people.slice(crowd.length + 1);
});
afterAll(() => ctx.close());

/**
 * The attacker's guess from the group's yes and no counts: the target is whatever is left once the 4 yeses are taken
 * away.
 */
function guess(yes: number, no: number, random: () => number): number {
  const targetYes = yes - sybilVoters.length;
  if (no === targetYes) return random() < 0.5 ? YES : NO;
  return no > targetYes ? NO : YES;
}

async function exploredQuestions(ids: number[]): Promise<Map<number, ExploredQuestion>> {
  const reads = await ctx.app.memory.cards.read(ctx.database.db, ids);
  return new Map([...reads].map(([id, read]) => [id, exploredOf(read)]));
}

/** `work` on every item, twenty at a time: on PostgreSQL they share the pool's connections. */
async function eachAtOnce<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += 20)
    results.push(...(await Promise.all(items.slice(start, start + 20).map(work))));
  return results;
}

const titles = (stem: string) => Array.from({ length: TRIALS }, (_, trial) => `${stem} ${trial}?`);

/** `TRIALS` questions, the target voting Yes on the even ones and No on the odd. */
function targetVotes(): number[] {
  return Array.from({ length: TRIALS }, (_, trial) => (trial % 2 === 0 ? YES : NO));
}

describe('the attack of fake accounts on a breakdown', () => {
  it('guesses the target’s vote no better than the privacy budget allows', { timeout: 120_000 }, async () => {
    const random = seededRandom(2026);
    const votes = targetVotes();
    const ids = await createQuestions(ctx, author, titles('Attacked'), ['Yes', 'No']);
    await castVotes(
      ctx,
      ids.flatMap((questionId, trial) => [
        ...crowdVoters.map((voter) => ({ questionId, voter, choice: random() < 0.5 ? YES : NO })),
        { questionId, voter: targetVoter, choice: votes[trial] },
        ...sybilVoters.map((voter) => ({ questionId, voter, choice: YES })),
      ]),
    );
    const questions = await exploredQuestions(ids);
    const { segmentTables } = ctx.app.memory;
    const [women, oldest] = [GENDERS.indexOf('F'), AGE_BANDS.length - 1];
    const groups = await eachAtOnce(ids, async (id) => {
      const table = await segmentTables.current(questions.get(id)!);
      const noise = (await segmentTables.releaseOf(table)).byCountry.get(JAPAN)!;
      const exact = table.countries.get(JAPAN)!;
      const [yes, no] = [0, 1].map((bucket) => cellIndex(table.buckets, women, oldest, bucket));
      return { exact: [exact[yes], exact[no]], released: [exact[yes] + noise[yes], exact[no] + noise[no]] };
    });
    let right = 0;
    let rightOnExactCounts = 0;
    for (const [trial, { exact, released }] of groups.entries()) {
      if (guess(released[0], released[1], random) === votes[trial]) right += 1;
      if (guess(exact[0], exact[1], random) === votes[trial]) rightOnExactCounts += 1;
    }
    // The same attack on exact counts never misses: it is the attack the issue describes.
    expect(rightOnExactCounts).toBe(TRIALS);
    expect(right / TRIALS).toBeLessThan(ALLOWED);
  });
});

describe('the attack of fake accounts on relate', () => {
  it('guesses the target’s vote no better than the privacy budget allows', { timeout: 120_000 }, async () => {
    const random = seededRandom(2027);
    const votes = targetVotes();
    // The crowd drinks coffee; the target and the 4 accounts alone drink tea.
    const [attacked, drinks] = [
      await createQuestions(ctx, author, titles('Attacked'), ['Yes', 'No']),
      await createQuestions(ctx, author, titles('Drink'), ['Coffee', 'Tea']),
    ];
    const pairs = attacked.map((first, trial): [number, number] => [first, drinks[trial]]);
    await castVotes(
      ctx,
      pairs.flatMap(([first, second], trial) => [
        ...crowdVoters.flatMap((voter) => [
          { questionId: first, voter, choice: random() < 0.5 ? YES : NO },
          { questionId: second, voter, choice: 1 },
        ]),
        { questionId: first, voter: targetVoter, choice: votes[trial] },
        { questionId: second, voter: targetVoter, choice: 2 },
        ...sybilVoters.flatMap((voter) => [
          { questionId: first, voter, choice: YES },
          { questionId: second, voter, choice: 2 },
        ]),
      ]),
    );
    const questions = await exploredQuestions(pairs.flat());
    // k = 0: every row as released, whether or not it would be shown.
    const rows = await eachAtOnce(
      pairs,
      async ([first, second]) =>
        (await relateTable(ctx.app.memory.pairTables, questions.get(first)!, questions.get(second)!, 0))!.rows[1]
          .counts,
    );
    let right = 0;
    for (const [trial, [yes, no]] of rows.entries()) if (guess(yes, no, random) === votes[trial]) right += 1;
    expect(right / TRIALS).toBeLessThan(ALLOWED);
  });
});

describe('the attack of fake accounts through the API', () => {
  it(
    'gets the release’s numbers, mostly too few to show, and cannot tell the target’s vote every time',
    { timeout: 120_000 },
    async () => {
      const app = await createTestApp();
      try {
        const year = new Date().getUTCFullYear();
        const [crowdUsers, [targetUser], accounts] = [
          await Promise.all(crowd.map((person) => signUpAs(app, person))),
          [await signUpAs(app, target)],
          await Promise.all(sybils(year).map((person) => signUpAs(app, person))),
        ];
        const asker = await signUp(app);
        const filter = { gender: 'F', min_age: 65, country: JAPAN };
        const random = seededRandom(2028);
        const rounds = 20;
        let right = 0;
        let shown = 0;
        for (let round = 0; round < rounds; round += 1) {
          const vote = round % 2 === 0 ? YES : NO;
          const question = await ask(asker, { question: `Attacked over HTTP ${round}?`, choices: ['Yes', 'No'] });
          const answer = (user: TestUser, choice: number) =>
            user.api.post(api.answer(question), answerBodySchema, { choice }, questionSchema);
          await Promise.all([
            ...crowdUsers.map((user) => answer(user, random() < 0.5 ? YES : NO)),
            answer(targetUser, vote),
            ...accounts.map((user) => answer(user, YES)),
          ]);

          const body = await accounts[0].api.post(
            api.breakdown(question),
            breakdownFilterBodySchema,
            filter,
            breakdownResultSchema,
          );
          // 27 + 1 + 4 = 32 votes: the first release point, so the release counts every one of them.
          expect(body.privacy).toMatchObject({ exact: false, counted: 32 });
          // What the API shows is the release's, as the module computes it for the same question.
          const [explored] = (await app.app.memory.cards.read(app.database.db, [question])).values();
          const release = await filteredBreakdown(
            app.app.memory.segmentTables,
            exploredOf(explored),
            { minAge: 65, maxAge: 999, gender: 'F', country: JAPAN },
            app.config.minGroupSize,
          );
          expect(body.question.result).toEqual(release.result);
          const counts = countsShown(body.question.result!);
          if (counts) shown += 1;
          if ((counts ? guess(counts.yes, counts.no, random) : random() < 0.5 ? YES : NO) === vote) right += 1;
        }
        // Five people with noise of standard deviation 6.4 in their count (one cell of the full
        // table, in an epoch of 2 countries) are shown only when the noise lifts them to 13, 2 sds:
        // about one round in 8. 10 rounds shown of 20 or more come about once in 30,000 runs; and
        // with a suppressed round a coin toss, each round is guessed right about half the time, all
        // 20 about once in a million runs.
        expect(shown).toBeLessThan(rounds / 2);
        expect(right).toBeLessThan(rounds);
      } finally {
        await app.close();
      }
    },
  );
});

/** The yes and no votes a shown result stands for: its count shared by its percentages. */
function countsShown(result: Result): { yes: number; no: number } | null {
  if (result.suppressed) return null;
  const percent = (key: number) =>
    result.answers.find((answer) => 'key' in answer && answer.key === key)! as { percent: number };
  return {
    yes: Math.round((result.count * percent(YES).percent) / 100),
    no: Math.round((result.count * percent(NO).percent) / 100),
  };
}
