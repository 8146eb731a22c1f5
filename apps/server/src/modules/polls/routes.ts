import {
  answerBodySchema,
  categoryParamsSchema,
  createQuestionBodySchema,
  createQuestionResponseSchema,
  errorBodySchema,
  feedSchema,
  idParamsSchema,
  likedSchema,
  pageQuerySchema,
  passedSchema,
  questionPageSchema,
  questionSchema,
  tagParamsSchema,
  userParamsSchema,
} from '@pollscope/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ConflictError, NotFoundError } from '../../errors.js';
import { viewer } from '../../plugins/auth.js';
import { questionViews } from '../../views/questions.js';
import { userExists } from '../social/users.js';
import { listAnsweredBy, listAskedBy, listCategory, listFeed, listLikedBy, listTag, type QuestionIdPage } from './lists.js';
import { questionOfTheDayFor } from './question-of-the-day.js';
import { checkChoice, createQuestion, questionForAction, setLiked, setPassed, voterOf } from './questions.js';
import { VoteWriter } from './vote-writer.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const tags = ['polls'];

export const pollsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app;
  const votes = new VoteWriter(db);
  const pageView = async (viewerId: number, page: QuestionIdPage) => ({ questions: await questionViews(db, viewerId, page.ids), next: page.next });

  app.get('/polls/questions/', { schema: { tags, querystring: pageQuerySchema, response: { 200: feedSchema, ...errors } } }, async (request) => {
    const viewerId = viewer(request);
    const [page, qotdId] = await Promise.all([listFeed(db, viewerId, request.query), request.query.cursor ? null : questionOfTheDayFor(db, viewerId)]);
    // The question of the day is viewed with the page, in the same queries.
    const ids = qotdId === null || page.ids.includes(qotdId) ? page.ids : [...page.ids, qotdId];
    const views = new Map((await questionViews(db, viewerId, ids)).map((view) => [view.id, view]));
    return { qotd: (qotdId !== null && views.get(qotdId)) || null, questions: page.ids.flatMap((id) => views.get(id) ?? []), next: page.next };
  });

  app.get(
    '/polls/category/:category/',
    { schema: { tags, params: categoryParamsSchema, querystring: pageQuerySchema, response: { 200: questionPageSchema, ...errors } } },
    async (request) => {
      const category = await db.selectFrom('categories').select('id').where('id', '=', request.params.category).executeTakeFirst();
      if (!category) throw new NotFoundError('No such category');
      const viewerId = viewer(request);
      return pageView(viewerId, await listCategory(db, viewerId, category.id, request.query));
    },
  );

  app.get(
    '/polls/tag/:tag/',
    { schema: { tags, params: tagParamsSchema, querystring: pageQuerySchema, response: { 200: questionPageSchema, ...errors } } },
    async (request) => {
      const viewerId = viewer(request);
      return pageView(viewerId, await listTag(db, viewerId, request.params.tag.toLowerCase(), request.query));
    },
  );

  app.get('/polls/question/:id/', { schema: { tags, params: idParamsSchema, response: { 200: questionSchema, ...errors } } }, async (request) => {
    const viewerId = viewer(request);
    const question = await questionForAction(db, viewerId, request.params.id);
    const [view] = await questionViews(db, viewerId, [question.id]);
    return view;
  });

  app.post(
    '/polls/create/',
    { schema: { tags, body: createQuestionBodySchema, response: { 200: createQuestionResponseSchema, ...errors } } },
    async (request) => {
      const viewerId = viewer(request);
      const id = await db.transaction().execute((trx) => createQuestion(trx, viewerId, request.body));
      const [question] = await questionViews(db, viewerId, [id]);
      return { question };
    },
  );

  app.post(
    '/polls/answer/:id/',
    { schema: { tags, params: idParamsSchema, body: answerBodySchema, response: { 200: questionSchema, ...errors, 409: errorBodySchema } } },
    async (request) => {
      const viewerId = viewer(request);
      const question = await questionForAction(db, viewerId, request.params.id);
      checkChoice(question, request.body.choice);
      // Caught by the unique index too, but refused here a repeat never costs a batch its commit.
      if (question.answered) throw new ConflictError('You already answered this question');
      const voter = await voterOf(db, viewerId);
      await votes.record({ questionId: question.id, voter, choice: request.body.choice });
      app.live.publish(question.id, viewerId);
      const [view] = await questionViews(db, viewerId, [question.id]);
      return view;
    },
  );

  for (const liked of [true, false]) {
    app.post(
      liked ? '/polls/like/:id/' : '/polls/unlike/:id/',
      { schema: { tags, params: idParamsSchema, response: { 200: likedSchema, ...errors } } },
      async (request) => {
        const viewerId = viewer(request);
        const question = await questionForAction(db, viewerId, request.params.id);
        await db.transaction().execute((trx) => setLiked(trx, viewerId, question.id, liked));
        app.live.publish(question.id, viewerId);
        return { liked };
      },
    );
  }

  for (const passed of [true, false]) {
    app.post(
      passed ? '/polls/pass/:id/' : '/polls/unpass/:id/',
      { schema: { tags, params: idParamsSchema, response: { 200: passedSchema, ...errors } } },
      async (request) => {
        const viewerId = viewer(request);
        const question = await questionForAction(db, viewerId, request.params.id);
        await setPassed(db, viewerId, question.id, passed);
        return { passed };
      },
    );
  }

  const userLists = { questions: listAskedBy, answered: listAnsweredBy, liked: listLikedBy };
  for (const [name, list] of Object.entries(userLists)) {
    app.get(`/polls/user/${name}/`, { schema: { tags, querystring: pageQuerySchema, response: { 200: questionPageSchema, ...errors } } }, async (request) => {
      const viewerId = viewer(request);
      return pageView(viewerId, await list(db, viewerId, viewerId, request.query));
    });
    app.get(
      `/polls/user/:user/${name}/`,
      { schema: { tags, params: userParamsSchema, querystring: pageQuerySchema, response: { 200: questionPageSchema, ...errors } } },
      async (request) => {
        const viewerId = viewer(request);
        if (!(await userExists(db, request.params.user))) throw new NotFoundError('No such user');
        return pageView(viewerId, await list(db, viewerId, request.params.user, request.query));
      },
    );
  }
};
