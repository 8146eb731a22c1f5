import {
  answerBodySchema,
  categoryParamsSchema,
  createQuestionBodySchema,
  createQuestionResponseSchema,
  errorBodySchema,
  feedSchema,
  type PageQuery,
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
import type { Db } from '../../db/index.js';
import { ConflictError, NotFoundError } from '../../errors.js';
import { listPage, questionToAct, questionViews, type Reader, type Skeleton } from '../../views/pipeline.js';
import { readerOf } from '../../views/reader.js';
import { mayViewProfile } from '../../views/rules.js';
import { sendJson } from '../../views/questions.js';
import { userExists } from '../social/index.js';
import { feedJson } from './feed.js';
import { actedOnBy, keptList } from './lists.js';
import { checkChoice, createQuestion, setPassed } from './questions.js';
import { likeWriter, voteWriter } from './writers.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const tags = ['polls'];

/** A page of a list of questions, as the contract shows it. */
async function page(reader: Reader, skeleton: Skeleton, query: PageQuery) {
  const { questions, next } = await listPage(reader, skeleton, query);
  return { questions, next };
}

/** The feed, the lists of a category and of a tag, and a question by itself. */
const questionReadRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, memory } = app;
  const { lists } = memory;

  app.get(
    '/polls/questions/',
    { schema: { tags, querystring: pageQuerySchema, response: { 200: feedSchema, ...errors } } },
    async (request, reply) => sendJson(reply, await feedJson(await readerOf(request), memory, request.query)),
  );

  app.get(
    '/polls/category/:category/',
    {
      schema: {
        tags,
        params: categoryParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: questionPageSchema, ...errors },
      },
    },
    async (request) => {
      const { category } = request.params;
      const found = await page(
        await readerOf(request),
        keptList(db, lists, [{ by: 'category', id: category }]),
        request.query,
      );
      // Only an empty page can be that of a category that does not exist.
      if (
        found.questions.length === 0 &&
        !(await db.selectFrom('categories').select('id').where('id', '=', category).executeTakeFirst())
      ) {
        throw new NotFoundError('errors.noSuchCategory');
      }
      return found;
    },
  );

  app.get(
    '/polls/tag/:tag/',
    {
      schema: {
        tags,
        params: tagParamsSchema,
        querystring: pageQuerySchema,
        response: { 200: questionPageSchema, ...errors },
      },
    },
    async (request) =>
      page(
        await readerOf(request),
        keptList(db, lists, [{ by: 'tag', name: request.params.tag.toLowerCase() }]),
        request.query,
      ),
  );

  app.get(
    '/polls/question/:id/',
    { schema: { tags, params: idParamsSchema, response: { 200: questionSchema, ...errors } } },
    async (request) => {
      const reader = await readerOf(request);
      const [view] = await questionViews(reader, [(await questionToAct(reader, request.params.id)).card.id]);
      return view;
    },
  );
};

/** A member's lists of questions, the viewer's own or another's. */
const userListRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, memory } = app;
  const { lists } = memory;

  /** A member's lists: the questions they asked (kept in memory), answered and liked (read where reads may lag). */
  const userLists: Record<'questions' | 'answered' | 'liked', (userId: number, laggingDb: Db) => Skeleton> = {
    questions: (userId) => keptList(db, lists, [{ by: 'author', id: userId }]),
    answered: (userId, laggingDb) => actedOnBy(laggingDb, 'votes', userId),
    liked: (userId, laggingDb) => actedOnBy(laggingDb, 'likes', userId),
  };
  for (const [name, skeletonOf] of Object.entries(userLists)) {
    app.get(
      `/polls/user/${name}/`,
      { schema: { tags, querystring: pageQuerySchema, response: { 200: questionPageSchema, ...errors } } },
      async (request) => {
        const reader = await readerOf(request);
        return page(reader, skeletonOf(reader.viewer.userId, request.laggingReads.db), request.query);
      },
    );
    app.get(
      `/polls/user/:user/${name}/`,
      {
        schema: {
          tags,
          params: userParamsSchema,
          querystring: pageQuerySchema,
          response: { 200: questionPageSchema, ...errors },
        },
      },
      async (request) => {
        const { user } = request.params;
        const reader = await readerOf(request);
        mayViewProfile(memory.moderation, reader.viewer.userId, user);
        const found = await page(reader, skeletonOf(user, request.laggingReads.db), request.query);
        // Only an empty page can be that of a member who does not exist.
        if (found.questions.length === 0 && !(await userExists(db, user))) throw new NotFoundError('errors.noSuchUser');
        return found;
      },
    );
  }
};

/** Questions: the lists of them, each by itself, and asking, answering, liking and hiding them. */
export const pollsRoutes: FastifyPluginAsyncZod = async (app, options) => {
  const { db, memory, changes } = app;
  const votes = voteWriter(changes);
  const likes = likeWriter(changes);

  await questionReadRoutes(app, options);

  app.post(
    '/polls/create/',
    { schema: { tags, body: createQuestionBodySchema, response: { 200: createQuestionResponseSchema, ...errors } } },
    async (request) => {
      const reader = await readerOf(request);
      const asked = await changes.commit((trx) => createQuestion(trx, reader.viewer.userId, request.body));
      const [question] = await questionViews(reader, [asked.questionId]);
      return { question };
    },
  );

  app.post(
    '/polls/answer/:id/',
    {
      schema: {
        tags,
        params: idParamsSchema,
        body: answerBodySchema,
        response: { 200: questionSchema, ...errors, 409: errorBodySchema },
      },
    },
    async (request) => {
      const reader = await readerOf(request);
      const { viewer } = reader;
      const { card } = await questionToAct(reader, request.params.id);
      const { choice } = request.body;
      checkChoice(card.kind, choice);
      // Caught by the unique index too, but refused here a repeat never costs a batch its commit.
      if (viewer.votes.has(card.id)) throw new ConflictError('errors.alreadyAnswered');
      const { version } = await votes.record({ questionId: card.id, voter: viewer.voter, choice });
      // As of this vote: the state this call began with may have been replaced meanwhile.
      const [view] = await questionViews({ ...reader, viewer: await memory.viewers.get(db, viewer.userId, version) }, [
        card.id,
      ]);
      return view;
    },
  );

  for (const liked of [true, false]) {
    app.post(
      liked ? '/polls/like/:id/' : '/polls/unlike/:id/',
      { schema: { tags, params: idParamsSchema, response: { 200: likedSchema, ...errors } } },
      async (request) => {
        const reader = await readerOf(request);
        const { card } = await questionToAct(reader, request.params.id);
        await likes.record({ userId: reader.viewer.userId, questionId: card.id, liked });
        return { liked };
      },
    );
  }

  for (const passed of [true, false]) {
    app.post(
      passed ? '/polls/pass/:id/' : '/polls/unpass/:id/',
      { schema: { tags, params: idParamsSchema, response: { 200: passedSchema, ...errors } } },
      async (request) => {
        const reader = await readerOf(request);
        const { card } = await questionToAct(reader, request.params.id);
        await changes.commit((trx) => setPassed(trx, reader.viewer.userId, card.id, passed));
        return { passed };
      },
    );
  }

  await userListRoutes(app, options);
};
