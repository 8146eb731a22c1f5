import { api, breakdownFilterBodySchema, breakdownResultSchema, relateBodySchema, relateResultSchema, type Result } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext } from '../../test/helper.js';
import { currentYear } from './ages.js';
import { BRAZIL, downloadGroups, FRANCE, generateCommunity, GERMANY, INDIA, JAPAN, queryString, seededRandom, US, type GeneratedVoter, type LabelledVotes } from './testing.js';

/**
 * Breakdown and relate answer from tallies kept as votes are cast; on a generated community,
 * every number they show must be what counting the votes themselves gives.
 */

interface Asked {
  id: number;
  type: 'MC' | 'RS' | 'N';
  /** MC choice labels; the answer labels of a rating or number are its values. */
  labels: string[];
  draw: (voter: GeneratedVoter) => number;
}

let ctx: TestContext;
let random: () => number;
let voters: GeneratedVoter[];
let colour: Asked;
let season: Asked;
let rating: Asked;
let number: Asked;
/** Someone who answered every question, and so may relate any two. */
let researcher: GeneratedVoter;

/** A choice of `count`, more often the first for women and the last for men, so that answers differ between groups. */
const leaning = (count: number) => (voter: GeneratedVoter) => {
  const draw = random();
  const lean = voter.gender === 'F' ? draw ** 1.5 : draw ** 0.7;
  return 1 + Math.min(count - 1, Math.floor(lean * count));
};

beforeAll(async () => {
  ctx = await createTestApp();
  random = seededRandom(20_260_101);
  voters = await generateCommunity(ctx, random, 220, [US, FRANCE, JAPAN, GERMANY, BRAZIL, INDIA]);
  const author = await signUp(ctx);
  colour = { id: await ask(author, { question: 'Favourite colour?', choices: ['Red', 'Green', 'Blue'] }), type: 'MC', labels: ['Red', 'Green', 'Blue'], draw: leaning(3) };
  season = {
    id: await ask(author, { question: 'Favourite season?', choices: ['Spring', 'Summer', 'Autumn', 'Winter'] }),
    type: 'MC',
    labels: ['Spring', 'Summer', 'Autumn', 'Winter'],
    draw: leaning(4),
  };
  rating = {
    id: await ask(author, { type: 'RS', question: 'Rate your sleep', choices: [] }),
    type: 'RS',
    labels: [],
    draw: (voter) => (voter.age > 40 ? 4 : 6) + Math.floor(random() * 5),
  };
  // Halves too: a number answer need not be whole.
  number = {
    id: await ask(author, { type: 'N', question: 'Hours online a week?', choices: ['0', '60'] }),
    type: 'N',
    labels: [],
    draw: () => Math.floor(random() * 61) / (random() < 0.2 ? 2 : 1),
  };
  for (const [index, voter] of voters.entries()) {
    for (const question of [colour, season, rating, number]) {
      if (index > 0 && random() < 0.15) continue;
      const reply = await voter.user.api.raw('POST', api.answer(question.id), { choice: question.draw(voter) });
      expect(reply.status).toBe(200);
    }
  }
  researcher = voters[0];
}, 120_000);
afterAll(() => ctx.close());

/** Votes per answer (as a label) counted from the votes themselves, joined with who cast them. */
async function countVotes(
  question: Asked,
  where: { gender?: 'F' | 'M'; country?: number; ages?: { min: number; max: number } | null; secondId?: number; secondChoice?: number },
): Promise<LabelledVotes> {
  const year = currentYear();
  let query = ctx.database.db
    .selectFrom('votes')
    .innerJoin('users', 'users.id', 'votes.user_id')
    .select(['votes.choice', (eb) => eb.fn.countAll<number>().as('votes')])
    .where('votes.question_id', '=', question.id)
    .groupBy('votes.choice');
  if (where.gender) query = query.where('users.gender', '=', where.gender);
  if (where.country) query = query.where('users.country_id', '=', where.country);
  if (where.ages) query = query.where('users.birth_year', '>=', year - where.ages.max).where('users.birth_year', '<=', year - where.ages.min);
  if (where.secondId !== undefined) {
    const { secondId, secondChoice } = where;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('votes as second')
          .select('second.id')
          .whereRef('second.user_id', '=', 'votes.user_id')
          .where('second.question_id', '=', secondId)
          .where('second.choice', '=', secondChoice!),
      ),
    );
  }
  const rows = await query.execute();
  return Object.fromEntries(rows.map((row) => [question.type === 'MC' ? question.labels[Number(row.choice) - 1] : String(Number(row.choice)), Number(row.votes)]));
}

const total = (counts: LabelledVotes) => Object.values(counts).reduce((sum, count) => sum + count, 0);
const nonZero = (counts: LabelledVotes) => Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 0));

/** A result as shown: its count, and for a rating or number its votes per value and average. */
function expectResult(result: Result, counts: LabelledVotes, question: Asked, source: string): void {
  expect(result.count, source).toBe(total(counts));
  if (question.type === 'MC') return;
  const shown = Object.fromEntries(result.answers.map((answer) => ('choice' in answer ? [String(answer.choice), answer.count] : [])));
  expect(nonZero(shown), source).toEqual(counts);
  const sum = Object.entries(counts).reduce((acc, [value, count]) => acc + Number(value) * count, 0);
  if (result.count > 0) expect(result.average, source).toBe(Math.round((sum / result.count) * 100) / 100);
}

const ageRanges: [number, number][] = [
  [0, 999],
  [0, 17],
  [18, 34],
  [20, 60],
  [21, 60],
  [35, 54],
  [45, 999],
  [65, 999],
];

describe('breakdown counts', () => {
  it('equal counting the votes, for every filter tried, on every kind of question', { timeout: 300_000 }, async () => {
    let compared = 0;
    let suppressed = 0;
    for (const question of [colour, season, rating, number]) {
      const everyone = await countVotes(question, {});
      for (const gender of [undefined, 'F', 'M'] as const) {
        for (const [min_age, max_age] of ageRanges) {
          for (const country of [undefined, US, FRANCE, JAPAN, BRAZIL]) {
            const filter = { min_age, max_age, ...(gender ? { gender } : {}), ...(country ? { country } : {}) };
            const source = `${question.type} ${question.id} ${JSON.stringify(filter)}`;
            const body = await researcher.user.api.post(api.breakdown(question.id), breakdownFilterBodySchema, filter, breakdownResultSchema);
            expectResult(body.overall, everyone, question, `${source}, everyone`);
            const csv = downloadGroups((await researcher.user.api.raw('GET', `${api.breakdownCsv(question.id)}?${queryString(filter)}`)).text, null).get('');
            if (body.question.result?.suppressed) {
              expect(csv, source).toBeNull();
              suppressed += 1;
              continue;
            }
            const counts = await countVotes(question, { gender, country, ages: body.ages });
            expectResult(body.question.result!, counts, question, source);
            expect(nonZero(csv!.votes), `${source} CSV`).toEqual(counts);
            expect(nonZero(csv!.everyone), `${source} CSV, everyone`).toEqual(everyone);
            compared += 1;
          }
        }
      }
    }
    // Most filters show a result: the comparison covers far more than the unfiltered ones.
    expect(compared).toBeGreaterThan(150);
    expect(suppressed).toBeGreaterThan(0);
  });
});

describe('relate counts', () => {
  it('equal counting the voters of each choice of the second question among the first’s', { timeout: 120_000 }, async () => {
    let compared = 0;
    for (const [first, second] of [
      [colour, season],
      [season, colour],
      [rating, colour],
      [number, season],
    ] as const) {
      const csv = downloadGroups((await researcher.user.api.raw('GET', api.relateCsv(first.id, second.id))).text, 'second_answer');
      for (const [index, label] of second.labels.entries()) {
        const source = `${first.type} ${first.id} by "${label}" of ${second.id}`;
        const counts = await countVotes(first, { secondId: second.id, secondChoice: index + 1 });
        const body = await researcher.user.api.post(api.relate(first.id, second.id), relateBodySchema, { choice: index + 1 }, relateResultSchema);
        if (body.question.result?.suppressed) {
          expect(csv.get(label), source).toBeNull();
          continue;
        }
        expectResult(body.question.result!, counts, first, source);
        expect(nonZero(csv.get(label)!.votes), `${source} CSV`).toEqual(counts);
        compared += 1;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(12);
  });
});
