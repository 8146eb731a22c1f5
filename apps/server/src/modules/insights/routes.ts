import {
  breakdownFilterBodySchema,
  breakdownInfoSchema,
  breakdownResultSchema,
  displayId,
  errorBodySchema,
  idParamsSchema,
  relateBodySchema,
  relateCsvQuerySchema,
  relatedListSchema,
  relatePairSchema,
  relateParamsSchema,
  relateResultSchema,
  type Question,
} from '@pollscope/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BadRequestError } from '../../errors.js';
import { listedViews, questionViews, type Reader } from '../../views/pipeline.js';
import { readerOf } from '../../views/reader.js';
import { buildResult } from '../../views/results.js';
import { exploredQuestion, type ExploredQuestion } from './access.js';
import { AGE_BANDS, type AgeBand } from './ages.js';
import {
  breakdownFilters,
  breakdownSplits,
  bucketResult,
  compareWithEveryone,
  filteredBreakdown,
  publicCounts,
  releasedGroupOf,
  suppressedResult,
  type BreakdownQuery,
} from './breakdown.js';
import { bucketsOf } from './buckets.js';
import type { Counts } from './counts.js';
import { BUDGET_SPENT, bucketLabels, GROUP_COLUMNS, groupLines, TOO_FEW, toCsv } from './csv.js';
import { questionsToRelate, relateTable, type RelateTable } from './relate.js';
import { associationIn } from './association.js';
import { requestLocale } from '../../views/request-locale.js';
import { RELATED_SHOWN } from './related.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
/** A download's answer: a CSV file, sent as it is. */
const csvFile = {
  200: { description: 'A CSV file, one line per answer and group', content: { 'text/csv': { schema: z.string() } } },
  ...errors,
};
const tags = ['insights'];

function queryOf(filter: z.output<typeof breakdownFilterBodySchema>): BreakdownQuery {
  return {
    minAge: filter.min_age,
    maxAge: filter.max_age,
    gender: filter.gender ?? null,
    country: filter.country ?? null,
  };
}

function describeAges(ages: AgeBand): string {
  return ages.max >= AGE_BANDS[AGE_BANDS.length - 1].max ? `ages ${ages.min} and over` : `ages ${ages.min}-${ages.max}`;
}

function sendCsv(reply: FastifyReply, filename: string, csv: string): FastifyReply {
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(csv);
}

/** The key of the second question's choice, or 400 naming the field. */
function choiceOf(second: ExploredQuestion, choice: number): number {
  if (!Number.isInteger(choice) || choice < 1 || choice > second.labels.length) {
    throw new BadRequestError('errors.relate.pickSecondChoice', {
      choice: { id: 'errors.useKey', values: { count: second.labels.length } },
    });
  }
  return choice;
}

export const insightsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const { segmentTables, pairTables: tables, related } = app.memory;
  const k = app.config.minGroupSize;

  const viewOf = async (reader: Reader, id: number): Promise<Question> => (await questionViews(reader, [id]))[0];

  app.get(
    '/polls/breakdown/:id/',
    { schema: { tags, params: idParamsSchema, response: { 200: breakdownInfoSchema, ...errors } } },
    async (request) => {
      const reader = await readerOf(request);
      const question = await exploredQuestion(reader, request.params.id);
      const [view, filters] = await Promise.all([viewOf(reader, question.id), breakdownFilters(db, question)]);
      const names = await db
        .selectFrom('countries')
        .select(['id', 'name'])
        .where('id', 'in', filters.country.length > 0 ? filters.country : [0])
        .execute();
      const splits = await breakdownSplits(
        segmentTables,
        question,
        filters,
        new Map(names.map((row) => [row.id, row.name])),
        k,
      );
      return { question: view, filters, splits };
    },
  );

  app.post(
    '/polls/breakdown/:id/',
    {
      schema: {
        tags,
        params: idParamsSchema,
        body: breakdownFilterBodySchema,
        response: { 200: breakdownResultSchema, ...errors },
      },
    },
    async (request) => {
      const reader = await readerOf(request);
      const question = await exploredQuestion(reader, request.params.id);
      const [breakdown, [view]] = await Promise.all([
        filteredBreakdown(segmentTables, question, queryOf(request.body), k),
        questionViews(reader, [question.id], { withResults: false }),
      ]);
      const { result, overall, comparison, ages, privacy } = breakdown;
      return { question: { ...view, result }, overall, comparison, ages, privacy };
    },
  );

  app.get(
    '/polls/breakdown/:id/csv',
    { schema: { tags, params: idParamsSchema, querystring: breakdownFilterBodySchema, response: csvFile } },
    async (request, reply) => {
      const question = await exploredQuestion(await readerOf(request), request.params.id);
      const query = queryOf(request.query);
      const breakdown = await filteredBreakdown(segmentTables, question, query, k);
      const country =
        query.country === null
          ? null
          : await db.selectFrom('countries').select('name').where('id', '=', query.country).executeTakeFirst();
      const filter =
        [
          query.gender === 'F' ? 'women' : query.gender === 'M' ? 'men' : null,
          breakdown.ages && describeAges(breakdown.ages),
          country?.name ?? query.country,
        ]
          .filter((part) => part !== null)
          .join(', ') || 'everyone';
      const lines = groupLines([question.id, question.title, filter], {
        kind: question.kind,
        answers: bucketLabels(question.kind, question.labels, breakdown.buckets),
        buckets: breakdown.buckets,
        group: breakdown.group,
        everyone: breakdown.everyone,
        everyoneAverage: breakdown.overall.average ?? null,
        comparison: breakdown.comparison,
      });
      return sendCsv(
        reply,
        `${displayId('QID', question.id)}-breakdown.csv`,
        toCsv(['question_id', 'question', 'filter', ...GROUP_COLUMNS], lines),
      );
    },
  );

  /** The pair, its release (null when its budget is spent), and both questions as the viewer sees them. */
  const relate = async (request: FastifyRequest, firstId: number, secondId: number) => {
    const reader = await readerOf(request);
    const [first, second] = await questionsToRelate(reader, firstId, secondId);
    const views = await questionViews(reader, [first.id, second.id]);
    const table = await relateTable(tables, first, second, k);
    return { first, second, table, firstView: views[0], secondView: views[1] };
  };

  /**
   * The first question's result among the voters of one choice of the second, beside everyone's
   * who answered the first; suppressed when their noisy count says too little.
   */
  const rowResult = (first: ExploredQuestion, table: RelateTable | null, choice: number) => {
    const row = table?.rows[choice - 1];
    if (!table || !row || !table.shown.has(row.key)) return { result: suppressedResult(), comparison: null };
    const group = { counts: row.counts, variance: table.variance, countVariance: table.countVariance };
    return {
      result: bucketResult(first.kind, table.buckets, row.counts),
      comparison: compareWithEveryone(first.kind, first.labels, table.buckets, group, new Map(first.votes)),
    };
  };

  app.get(
    '/polls/relate/:a/:b/',
    { schema: { tags, params: relateParamsSchema, response: { 200: relatePairSchema, ...errors } } },
    async (request) => {
      const { first, second, table, firstView, secondView } = await relate(request, request.params.a, request.params.b);
      const choices = table
        ? table.rows.map((row) => ({
            key: row.key,
            ...releasedGroupOf(
              first.kind,
              first.labels,
              table.buckets,
              second.labels[row.key - 1],
              { counts: row.counts, variance: table.variance, countVariance: table.countVariance },
              k,
            ),
          }))
        : [];
      return {
        first: firstView,
        second: secondView,
        association: table?.tested ? associationIn(table.tested, await requestLocale(request)) : null,
        privacy: table?.privacy ?? null,
        choices,
      };
    },
  );

  app.post(
    '/polls/relate/:a/:b/',
    {
      schema: {
        tags,
        params: relateParamsSchema,
        body: relateBodySchema,
        response: { 200: relateResultSchema, ...errors },
      },
    },
    async (request) => {
      const { first, second, table, firstView } = await relate(request, request.params.a, request.params.b);
      const { result, comparison } = rowResult(first, table, choiceOf(second, request.body.choice));
      return {
        question: { ...firstView, result },
        comparison,
        overall: firstView.result ?? buildResult(first.kind, new Map()),
        association: table?.tested ? associationIn(table.tested, await requestLocale(request)) : null,
        privacy: table?.privacy ?? null,
      };
    },
  );

  app.get(
    '/polls/relate/:a/:b/csv',
    { schema: { tags, params: relateParamsSchema, querystring: relateCsvQuerySchema, response: csvFile } },
    async (request, reply) => {
      const { first, second, table } = await relate(request, request.params.a, request.params.b);
      const keys =
        request.query.choice === undefined
          ? second.labels.map((_, index) => index + 1)
          : [choiceOf(second, request.query.choice)];
      const buckets = bucketsOf(first.kind);
      const everyoneVotes: Counts = new Map(first.votes);
      const answers = bucketLabels(first.kind, first.labels, buckets);
      const lines = keys.flatMap((key) => {
        const row = table?.rows[key - 1];
        const shown =
          table && row && table.shown.has(key)
            ? { counts: row.counts, variance: table.variance, countVariance: table.countVariance }
            : null;
        return groupLines(
          [first.id, first.title, second.id, second.title, second.labels[key - 1]],
          {
            kind: first.kind,
            answers,
            buckets,
            group: shown,
            everyone: publicCounts(first.kind, buckets, everyoneVotes),
            everyoneAverage: buildResult(first.kind, everyoneVotes).average ?? null,
            comparison: shown && compareWithEveryone(first.kind, first.labels, buckets, shown, everyoneVotes),
          },
          table ? TOO_FEW : BUDGET_SPENT,
        );
      });
      const header = [
        'first_question_id',
        'first_question',
        'second_question_id',
        'second_question',
        'second_answer',
        ...GROUP_COLUMNS,
      ];
      return sendCsv(
        reply,
        `${displayId('QID', first.id)}-${displayId('QID', second.id)}-relate.csv`,
        toCsv(header, lines),
      );
    },
  );
  app.get(
    '/polls/related/:id/',
    { schema: { tags, params: idParamsSchema, response: { 200: relatedListSchema, ...errors } } },
    async (request) => {
      const reader = await readerOf(request);
      const question = await exploredQuestion(reader, request.params.id);
      const entries = new Map((await related.get(question, k)).map((entry) => [entry.id, entry]));
      // Those the viewer hid or whose authors a block stands between are left out.
      const views = (await listedViews(reader, [...entries.keys()])).slice(0, RELATED_SHOWN);
      return {
        related: views.map((view) => {
          const entry = entries.get(view.id)!;
          return {
            question: view,
            shared_voters: entry.sharedVoters,
            cramers_v: entry.cramersV,
            p_value: entry.pValue,
            q_value: entry.qValue,
          };
        }),
      };
    },
  );
};
