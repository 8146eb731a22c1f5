import { errorBodySchema, siteStatsSchema, type SiteStats } from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/index.js';
import { SYSTEM_EMAIL } from '../../db/schema.js';
import { activityByDay, utcDay } from './activity.js';
import { dailyBarChartSvg } from './chart.js';

const CHART_DAYS = 30;
const CACHE_MS = 30_000;
const tags = ['site'];
const publicCall = { public: true };

type SiteTotals = Pick<SiteStats, 'users' | 'questions' | 'answers' | 'likes'>;

async function siteTotals(db: Db): Promise<SiteTotals> {
  const count = (table: 'users' | 'questions' | 'votes' | 'likes') =>
    db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow()
      .then((row) => Number(row.count));
  const [users, questions, answers, likes] = await Promise.all([
    count('users'),
    count('questions'),
    count('votes'),
    count('likes'),
  ]);
  const systemUsers = await db.selectFrom('users').select('id').where('email', '=', SYSTEM_EMAIL).execute();
  return { users: users - systemUsers.length, questions, answers, likes };
}

async function answersPerDay(db: Db): Promise<SiteStats['answers_per_day']> {
  const days = Array.from({ length: CHART_DAYS }, (_, index) =>
    utcDay(new Date(Date.now() - (CHART_DAYS - 1 - index) * 86_400_000)),
  );
  const byDay = await activityByDay(db, days[0]);
  return days.map((day) => ({ day, answers: byDay.get(day)?.answers ?? 0 }));
}

export const siteRoutes: FastifyPluginAsyncZod = async (app) => {
  // Totals count whole tables, so they are computed at most once per interval per server.
  let cached: { at: number; totals: Promise<SiteTotals> } | null = null;

  app.get(
    '/polls/site-stats/',
    { config: publicCall, schema: { tags, security: [], response: { 200: siteStatsSchema, 400: errorBodySchema } } },
    async (request) => {
      const { db } = request.laggingReads;
      if (!cached || Date.now() - cached.at > CACHE_MS) cached = { at: Date.now(), totals: siteTotals(db) };
      const [totals, perDay] = await Promise.all([cached.totals, answersPerDay(db)]);
      return { ...totals, image: `/api/polls/site-stats/chart.svg?day=${utcDay()}`, answers_per_day: perDay };
    },
  );

  app.get(
    '/polls/site-stats/chart.svg',
    {
      config: publicCall,
      schema: {
        tags,
        security: [],
        response: {
          200: { description: 'An SVG image', content: { 'image/svg+xml': { schema: z.string() } } },
          400: errorBodySchema,
        },
      },
    },
    async (request, reply) => {
      const svg = dailyBarChartSvg(
        `Answers per day, last ${CHART_DAYS} days`,
        await answersPerDay(request.laggingReads.db),
      );
      return reply.type('image/svg+xml').header('cache-control', 'public, max-age=300').send(svg);
    },
  );
};
