import {
  api,
  breakdownFilterBodySchema,
  breakdownResultSchema,
  relateBodySchema,
  relateResultSchema,
  type Result,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext } from '../../test/helper.js';
import { percentages, type QuestionKind } from '../../views/results.js';
import { exploredOf } from './access.js';
import { bandOf } from './ages.js';
import { bucketsOf } from './buckets.js';
import { blockCell, GENDERS } from '../../private-release/breakdown-cells.js';
import {
  BRAZIL,
  downloadGroups,
  FRANCE,
  generateCommunity,
  GERMANY,
  INDIA,
  JAPAN,
  queryString,
  releasedGroup,
  type ReleasedGroup,
  releasedRow,
  seededRandom,
  US,
  type GeneratedVoter,
  type LabelledVotes,
} from '../../../test/insights.js';

/**
 * Breakdown and relate answer from tables kept as votes are cast and from noise kept in the
 * database; on a generated community, every number they show must be what the release holds:
 * the votes counted straight from the votes table, plus the noise read straight from where it is
 * kept. Everyone's result is exact.
 */

interface Asked {
  id: number;
  kind: QuestionKind;
  /** MC choice labels. */
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

const choices = (count: number): QuestionKind => ({
  type: 'MC',
  keys: Array.from({ length: count }, (_, index) => index + 1),
});

beforeAll(async () => {
  ctx = await createTestApp();
  random = seededRandom(20_260_101);
  voters = await generateCommunity(ctx, random, 220, [US, FRANCE, JAPAN, GERMANY, BRAZIL, INDIA]);
  const author = await signUp(ctx);
  colour = {
    id: await ask(author, { question: 'Favourite colour?', choices: ['Red', 'Green', 'Blue'] }),
    kind: choices(3),
    labels: ['Red', 'Green', 'Blue'],
    draw: leaning(3),
  };
  season = {
    id: await ask(author, { question: 'Favourite season?', choices: ['Spring', 'Summer', 'Autumn', 'Winter'] }),
    kind: choices(4),
    labels: ['Spring', 'Summer', 'Autumn', 'Winter'],
    draw: leaning(4),
  };
  rating = {
    id: await ask(author, { type: 'RS', question: 'Rate your sleep', choices: [] }),
    kind: { type: 'RS', min: 1, max: 10 },
    labels: [],
    draw: (voter) => (voter.age > 40 ? 4 : 6) + Math.floor(random() * 5),
  };
  // Halves too: a number answer need not be whole.
  number = {
    id: await ask(author, { type: 'N', question: 'Hours online a week?', choices: ['0', '60'] }),
    kind: { type: 'N', min: 0, max: 60 },
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

/** A result as its release's counts per bucket show it. */
function expectCounts(result: Result, counts: number[], question: Asked, source: string): void {
  expect(result.count, source).toBe(counts.reduce((sum, count) => sum + count, 0));
  if (question.kind.type === 'MC') {
    expect(result.answers, source).toEqual(
      question.kind.keys.map((key, index) => ({ key, percent: percentages(counts)[index] })),
    );
    return;
  }
  expect(
    result.answers.map((answer) => ('count' in answer ? answer.count : null)),
    source,
  ).toEqual(counts);
}

/** A download's votes per answer, in the order of the question's buckets. */
const inOrder = (votes: LabelledVotes) => Object.values(votes);

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
  it(
    'are the release’s for every filter tried, on every kind of question, and everyone’s are exact',
    { timeout: 300_000 },
    async () => {
      let exactGroups = 0;
      let suppressed = 0;
      for (const question of [colour, season, rating, number]) {
        let everyone: ReleasedGroup | undefined;
        const [explored] = (await ctx.app.memory.cards.read(ctx.database.db, [question.id])).values();
        const table = await ctx.app.memory.segmentTables.current(exploredOf(explored));
        const buckets = bucketsOf(question.kind);
        for (const gender of [undefined, 'F', 'M'] as const) {
          for (const [min_age, max_age] of ageRanges) {
            for (const country of [undefined, US, FRANCE, JAPAN, BRAZIL]) {
              const filter = { min_age, max_age, ...(gender ? { gender } : {}), ...(country ? { country } : {}) };
              const source = `${question.kind.type} ${question.id} ${JSON.stringify(filter)}`;
              const body = await researcher.user.api.post(
                api.breakdown(question.id),
                breakdownFilterBodySchema,
                filter,
                breakdownResultSchema,
              );
              // The first request released the epochs the votes have reached.
              everyone ??= await releasedGroup(ctx, question, { ages: null });
              // Everyone is exact: every vote so far with no filter, beside a group the votes the release counts.
              expect(body.overall.count, `${source}, everyone`).toBe(
                body.privacy.exact ? explored.moving.voteCount : everyone.exact.reduce((sum, count) => sum + count, 0),
              );
              const csv = downloadGroups(
                (await researcher.user.api.raw('GET', `${api.breakdownCsv(question.id)}?${queryString(filter)}`)).text,
                null,
              ).get('');
              const group = await releasedGroup(ctx, question, { gender, country, ages: body.ages ?? null });

              // The table in memory counts the group's votes exactly as the votes table does.
              const cells = country === undefined ? table.everywhere : table.countries.get(country);
              const genders = gender ? [GENDERS.indexOf(gender)] : [0, 1];
              const [first, last] = [bandOf(body.ages?.min ?? 0), bandOf(body.ages?.max ?? 999)];
              const counted = buckets.values.map((_, bucket) =>
                genders.reduce(
                  (sum, g) =>
                    sum +
                    Array.from(
                      { length: last - first + 1 },
                      (_, band) => cells?.[blockCell(buckets.count, g, first + band, bucket)] ?? 0,
                    ).reduce((a, b) => a + b, 0),
                  0,
                ),
              );
              expect(counted, `${source}, counted in memory`).toEqual(group.exact);

              if (body.privacy.exact) {
                expect(body.question.result, source).toEqual(body.overall);
                exactGroups += 1;
                continue;
              }
              if (!group.shown) {
                expect(body.question.result?.suppressed, source).toBe(true);
                expect(csv, source).toBeNull();
                suppressed += 1;
                continue;
              }
              expectCounts(body.question.result!, group.released, question, source);
              expect(inOrder(csv!.votes), `${source} CSV`).toEqual(group.released);
              // A multiple-choice question's download gives everyone's number of votes, never a choice's count.
              const everyoneCount = everyone.exact.reduce((sum, count) => sum + count, 0);
              expect(inOrder(csv!.everyone), `${source} CSV, everyone`).toEqual(
                question.kind.type === 'MC' ? everyone.exact.map(() => everyoneCount) : everyone.exact,
              );
            }
          }
        }
      }
      // Only the filters that leave everyone in are exact; most of the groups of a community of 220 are too small for
      // their noise.
      expect(exactGroups).toBe(4);
      expect(suppressed).toBeGreaterThan(300);
    },
  );
});

describe('relate counts', () => {
  it('are the release’s for the voters of each choice of the second question', { timeout: 120_000 }, async () => {
    for (const [first, second] of [
      [colour, season],
      [season, colour],
      [rating, colour],
      [number, season],
    ] as const) {
      const csv = downloadGroups(
        (await researcher.user.api.raw('GET', api.relateCsv(first.id, second.id))).text,
        'second_answer',
      );
      for (const [index, label] of second.labels.entries()) {
        const source = `${first.kind.type} ${first.id} by "${label}" of ${second.id}`;
        const body = await researcher.user.api.post(
          api.relate(first.id, second.id),
          relateBodySchema,
          { choice: index + 1 },
          relateResultSchema,
        );
        const row = await releasedRow(ctx, first, second, index + 1);
        expect(body.question.result?.suppressed ?? false, source).toBe(!row.shown);
        if (!row.shown) {
          expect(csv.get(label), source).toBeNull();
          continue;
        }
        expectCounts(body.question.result!, row.released, first, source);
        expect(inOrder(csv.get(label)!.votes), `${source} CSV`).toEqual(row.released);
      }
    }
  });

  it(
    'are the exact counts plus the stream’s noise decoded over its epochs, related either way round',
    { timeout: 120_000 },
    async () => {
      const asker = await signUp(ctx);
      const drink: Asked = {
        id: await ask(asker, { question: 'Tea or coffee?', choices: ['Tea', 'Coffee', 'Neither'] }),
        kind: choices(3),
        labels: ['Tea', 'Coffee', 'Neither'],
        draw: leaning(3),
      };
      const commute: Asked = {
        id: await ask(asker, { question: 'How do you get to work?', choices: ['Walk', 'Cycle', 'Drive', 'Bus'] }),
        kind: choices(4),
        labels: ['Walk', 'Cycle', 'Drive', 'Bus'],
        draw: leaning(4),
      };
      // Related first by the lower question's choices, so that its stream's tables keep them, then again as the
      // people who answered both reach 64 and 128: epochs of 32, 32 and 64 people, and 220 counted by none yet.
      let voted = 0;
      for (const upTo of [32, 64, 128, voters.length]) {
        for (const voter of voters.slice(voted, upTo))
          for (const question of [drink, commute]) {
            const reply = await voter.user.api.raw('POST', api.answer(question.id), { choice: question.draw(voter) });
            expect(reply.status).toBe(200);
          }
        voted = upTo;
        expect((await researcher.user.api.raw('GET', api.relate(commute.id, drink.id))).status).toBe(200);
      }
      const epochs = await ctx.database.db
        .selectFrom('relate_releases')
        .select(['epoch', 'low_counted', 'tables'])
        .where('low_id', '=', drink.id)
        .where('high_id', '=', commute.id)
        .orderBy('epoch')
        .execute();
      expect(epochs.map((epoch) => [epoch.epoch, epoch.low_counted])).toEqual([
        [0, 0],
        [1, 32],
        [2, 64],
        [3, 128],
      ]);
      // Voters by the lower question's choice (mask 1) and the full table: the first question's answers alone get
      // nothing.
      for (const epoch of epochs)
        expect((JSON.parse(epoch.tables!) as { mask: number }[]).map((table) => table.mask)).toEqual([1, 3]);
      for (const [first, second] of [
        [commute, drink],
        [drink, commute],
      ] as const) {
        for (const [index, label] of second.labels.entries()) {
          const source = `${first.id} by "${label}" of ${second.id}`;
          const body = await researcher.user.api.post(
            api.relate(first.id, second.id),
            relateBodySchema,
            { choice: index + 1 },
            relateResultSchema,
          );
          const row = await releasedRow(ctx, first, second, index + 1);
          expect(body.privacy, source).toEqual({
            first_counted: 128,
            second_counted: 128,
            count_sd: Math.round(row.countSd * 100) / 100,
          });
          expect(body.question.result?.suppressed ?? false, source).toBe(!row.shown);
          if (row.shown) expectCounts(body.question.result!, row.released, first, source);
        }
      }
    },
  );
});
