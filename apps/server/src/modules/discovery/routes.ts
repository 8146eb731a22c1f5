import {
  errorBodySchema,
  peopleQuerySchema,
  peopleSchema,
  questionPageSchema,
  searchQuerySchema,
  suggestionsSchema,
  trendingSchema,
} from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listPage } from '../../views/pipeline.js';
import { readerOf } from '../../views/reader.js';
import { isProfileShown } from '../../views/rules.js';
import { findPeople, suggestPeople } from './people.js';
import { SEARCH_MAX_KEY, matchingQuestions, queryWords } from './search.js';
import { rankedList } from './trending.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema };
const tags = ['discovery'];
/** Trending questions shown: one page. */
const TRENDING_SHOWN = 20;

export const discoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { dialect, memory } = app;

  app.get(
    '/polls/search/',
    { schema: { tags, querystring: searchQuerySchema, response: { 200: questionPageSchema, ...errors } } },
    async (request) => {
      const { q, ...page } = request.query;
      const words = queryWords(q);
      if (words.length === 0) return { questions: [], next: null };
      const { questions, next } = await listPage(
        await readerOf(request),
        matchingQuestions(request.laggingReads, dialect, memory.searches, words),
        page,
        SEARCH_MAX_KEY,
      );
      return { questions, next };
    },
  );

  app.get('/polls/trending/', { schema: { tags, response: { 200: trendingSchema, ...errors } } }, async (request) => {
    const [reader, ranking] = await Promise.all([readerOf(request), memory.trending.ranking()]);
    const { questions } = await listPage(reader, rankedList(ranking), { limit: TRENDING_SHOWN });
    return { questions };
  });

  app.get(
    '/auth/people/',
    { schema: { tags, querystring: peopleQuerySchema, response: { 200: peopleSchema, ...errors } } },
    async (request) => {
      const { viewer } = await readerOf(request);
      const people = await findPeople(request.laggingReads.db, viewer, request.query.q);
      return { people: people.filter((person) => isProfileShown(memory.moderation, viewer.userId, person.id)) };
    },
  );

  app.get(
    '/auth/suggestions/',
    { schema: { tags, response: { 200: suggestionsSchema, ...errors } } },
    async (request) => {
      const { viewer } = await readerOf(request);
      const people = await suggestPeople(request.laggingReads.db, viewer);
      return { people: people.filter((person) => isProfileShown(memory.moderation, viewer.userId, person.id)) };
    },
  );
};
