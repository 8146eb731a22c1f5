import { api } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { castVotes, createPeople, csvRecords, FRANCE, queryString, US } from '../../../test/insights.js';

/**
 * Everyone's result for a multiple-choice question is whole percentages and the number of votes,
 * wherever it leaves the server: a choice's exact count at every vote would let anyone who answered
 * read the next voter's answer from two downloads, one before the vote and one after.
 */

let ctx: TestContext;
let attacker: TestUser;
let target: TestUser;
/** The same question twice, with the same 100 votes: the target answers "Yes" to one and "No" to the other. */
let saidYes: number;
let saidNo: number;

const filters: Record<string, string | number>[] = [{}, { gender: 'F' }, { gender: 'M' }, { country: FRANCE }];

beforeAll(async () => {
  ctx = await createTestApp();
  const author = await signUp(ctx);
  saidYes = await ask(author, { question: 'Early riser?', choices: ['Yes', 'No'] });
  saidNo = await ask(author, { question: 'Early riser, really?', choices: ['Yes', 'No'] });
  attacker = await signUp(ctx, { gender: 'M', livingIn: US });
  target = await signUp(ctx, { gender: 'F', livingIn: FRANCE });
  // Women of 30 in France and men of 40 in the US in turn.
  const crowd = await createPeople(
    ctx,
    Array.from({ length: 99 }, (_, index) =>
      index % 2 === 0 ? { gender: 'F', age: 30, country: FRANCE } : { gender: 'M', age: 40, country: US },
    ),
  );
  for (const question of [saidYes, saidNo]) {
    expect((await attacker.api.raw('POST', api.answer(question), { choice: 1 })).status).toBe(200);
    // 50 "Yes" (the attacker's among them) and 50 "No", each of both genders: 100 votes, past the release point at 64.
    await castVotes(
      ctx,
      crowd.map((voter, index) => ({ questionId: question, voter, choice: index % 4 < 2 ? 2 : 1 })),
    );
  }
});
afterAll(() => ctx.close());

/** Each line of every download of a question, one download per filter. */
async function downloads(question: number): Promise<Record<string, string>[]> {
  const lines = [];
  for (const filter of filters) {
    const reply = await attacker.api.raw('GET', `${api.breakdownCsv(question)}?${queryString(filter)}`);
    expect(reply.status).toBe(200);
    lines.push(...csvRecords(reply.text));
  }
  return lines;
}

/**
 * Everyone's columns of each line of a group shown, by filter and answer: the groups narrower than everyone are
 * released with each question's own noise, which may show a group of one question and not of the other.
 */
const everyoneColumns = (lines: Record<string, string>[]) =>
  new Map(
    lines
      .filter((line) => !line.note)
      .map(({ filter, answer, everyone_votes, everyone_percent }) => [
        `${filter}: ${answer}`,
        { everyone_votes, everyone_percent },
      ]),
  );

/** The entries of `a` whose keys `b` has too. */
const sharedWith = <V>(a: Map<string, V>, b: Map<string, V>) => [...a].filter(([key]) => b.has(key));

describe('the CSV difference attack', () => {
  it('reads nothing of the target’s choice from two downloads', async () => {
    const before = { yes: await downloads(saidYes), no: await downloads(saidNo) };
    expect((await target.api.raw('POST', api.answer(saidYes), { choice: 1 })).status).toBe(200);
    expect((await target.api.raw('POST', api.answer(saidNo), { choice: 2 })).status).toBe(200);
    const after = { yes: await downloads(saidYes), no: await downloads(saidNo) };
    // Whatever the target chose, everyone's columns are the same…
    const [yes, no] = [everyoneColumns(after.yes), everyoneColumns(after.no)];
    expect(yes.has('everyone: Yes') && no.has('everyone: Yes')).toBe(true);
    expect(sharedWith(yes, no)).toEqual(sharedWith(no, yes));
    // …and the same as before but for the number of votes, which every card shows: 101 now, where
    // exact counts would have been 51 and 50 one way, 50 and 51 the other.
    for (const [answers, earlier] of [
      [yes, everyoneColumns(before.yes)],
      [no, everyoneColumns(before.no)],
    ]) {
      const counted = [...earlier].map(([key, columns]) => [
        key,
        { ...columns, everyone_votes: columns.everyone_votes === '100' ? '101' : columns.everyone_votes },
      ]);
      expect([...answers]).toEqual(counted);
    }
    const unfiltered = after.yes.filter((line) => line.filter === 'everyone');
    expect(
      unfiltered.map((line) => [line.answer, line.votes, line.percent, line.everyone_votes, line.everyone_percent]),
    ).toEqual([
      ['Yes', '', '50', '101', '50'],
      ['No', '', '50', '101', '50'],
    ]);
    // The groups narrower than everyone are released up to the release point at 64, which the target's vote is past.
    const filtered = (lines: Record<string, string>[]) => lines.filter((line) => line.filter !== 'everyone');
    expect(filtered(after.yes)).toEqual(filtered(before.yes));
    expect(filtered(after.no)).toEqual(filtered(before.no));
  });
});

/** Every answer object under a result in a response: a multiple-choice one is `{ key, percent }` alone. */
function choiceAnswers(value: unknown, found: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) choiceAnswers(item, found);
  else if (value && typeof value === 'object') {
    for (const [name, inner] of Object.entries(value)) {
      if (name === 'answers' && Array.isArray(inner)) found.push(...inner);
      else choiceAnswers(inner, found);
    }
  }
  return found;
}

describe('a multiple-choice question', () => {
  it('has no exact count of a choice in any response', async () => {
    const responses = [
      await attacker.api.raw('GET', api.question(saidYes)),
      await attacker.api.raw('GET', api.live(saidYes)),
      await attacker.api.raw('GET', api.breakdown(saidYes)),
      ...(await Promise.all(filters.map((filter) => attacker.api.raw('POST', api.breakdown(saidYes), filter)))),
      await attacker.api.raw('GET', api.relate(saidYes, saidNo)),
      await attacker.api.raw('POST', api.relate(saidYes, saidNo), { choice: 1 }),
    ];
    const answers = responses.flatMap((reply) => {
      expect(reply.status).toBe(200);
      return choiceAnswers(JSON.parse(reply.text));
    });
    expect(answers.length).toBeGreaterThan(10);
    for (const answer of answers) expect(Object.keys(answer as object).sort()).toEqual(['key', 'percent']);
    // Downloads give everyone's number of votes on each line, and a group that is everyone no votes per choice.
    const csvs = [
      ...(await Promise.all(
        filters.map((filter) => attacker.api.raw('GET', `${api.breakdownCsv(saidYes)}?${queryString(filter)}`)),
      )),
      await attacker.api.raw('GET', api.relateCsv(saidYes, saidNo)),
    ];
    for (const csv of csvs) {
      for (const line of csvRecords(csv.text)) {
        if (line.note) continue;
        // Every vote beside everyone or a relate choice; the votes the release counts beside a narrower group.
        expect(line.everyone_votes).toBe(line.filter && line.filter !== 'everyone' ? '96' : '101');
        if (line.noise_sd === '0') expect(line.votes).toBe('');
      }
    }
  });
});
