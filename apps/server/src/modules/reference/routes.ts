import { categoryListSchema, countryListSchema, errorBodySchema, quizListSchema } from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/index.js';
import { listedViews } from '../../views/pipeline.js';

const tags = ['reference'];
const publicCall = { public: true };
const byName = new Intl.Collator('en');

/** The categories a question may be in, by id: the list every screen that files or filters questions offers. */
export function categoryList(db: Db) {
  return db.selectFrom('categories').select(['id', 'name']).orderBy('id').execute();
}

export const referenceRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;

  // Sorted here rather than by the database, whose collation differs between dialects: "Åland
  // Islands" belongs beside "Albania", not after "Zimbabwe".
  app.get(
    '/polls/countries/',
    { config: publicCall, schema: { tags, security: [], response: { 200: countryListSchema, 400: errorBodySchema } } },
    async () => {
      const countries = await db.selectFrom('countries').select(['id', 'code', 'name']).execute();
      return countries.sort((a, b) => byName.compare(a.name, b.name));
    },
  );

  app.get(
    '/polls/categories/',
    { config: publicCall, schema: { tags, security: [], response: { 200: categoryListSchema, 400: errorBodySchema } } },
    () => categoryList(db),
  );

  app.get(
    '/polls/quizes/',
    { config: publicCall, schema: { tags, security: [], response: { 200: quizListSchema, 400: errorBodySchema } } },
    async () => {
      const items = await db
        .selectFrom('quiz_items')
        .select(['question_id', 'answer', 'strict'])
        .orderBy('id')
        .execute();
      // The quiz is taken before signing up: everyone gets it as a visitor would, with no result, and without what
      // moderators withheld.
      const questions = await listedViews(
        { db, cards: app.memory.cards, moderation: app.memory.moderation, viewer: null },
        items.map((item) => item.question_id),
      );
      const byId = new Map(questions.map((question) => [question.id, question]));
      return items.flatMap((item) => {
        const question = byId.get(item.question_id);
        return question ? [{ question, answer: item.strict ? item.answer : null, strict: Boolean(item.strict) }] : [];
      });
    },
  );
};
