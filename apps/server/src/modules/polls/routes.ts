import {
  answerBodySchema,
  categoryParamsSchema,
  createQuestionBodySchema,
  createQuestionResponseSchema,
  errorBodySchema,
  feedSchema,
  type Feed,
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
import { ownStateMoved, viewerState } from '../../views/plugin.js';
import { cardReadsOf, questionViews, responseJson, sendJson } from '../../views/questions.js';
import type { ViewerState } from '../../views/viewer-states.js';
import { userExists } from '../social/index.js';
import { AuthorQuestions } from './author-questions.js';
import { FeedPages } from './feed-pages.js';
import { listAnsweredBy, listAskedBy, listCategory, listFeed, listLikedBy, listTag, type QuestionIdPage } from './lists.js';
import { questionOfTheDayFinder } from './question-of-the-day.js';
import { cardForAction, checkChoice, createQuestion, setLiked, setPassed } from './questions.js';
import { VoteWriter } from './vote-writer.js';

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema };
const tags = ['polls'];
/** Question ids of the authors in feeds kept at most; 8 bytes each. */
const MAX_AUTHOR_QUESTION_IDS = 2_000_000;

export const pollsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, cards, viewers } = app;
  const votes = new VoteWriter(db);
  const authorQuestions = new AuthorQuestions(MAX_AUTHOR_QUESTION_IDS);
  app.changes.onRemote((change) => {
    if (change.kind === 'author') authorQuestions.staled(change.id);
    else if (change.kind === 'missed') authorQuestions.staledAll();
  });
  const feedPages = new FeedPages(app.config.feedPagesMegabytes * 1024 * 1024);
  const questionOfTheDay = questionOfTheDayFinder(db);
  const pageView = async (viewer: ViewerState, page: QuestionIdPage) => ({ questions: await questionViews(db, cards, viewer, page.ids), next: page.next });

  app.get('/polls/questions/', { schema: { tags, querystring: pageQuerySchema, response: { 200: feedSchema, ...errors } } }, async (request, reply) => {
    const viewer = await viewerState(request);
    // Taken before anything awaits: the state is changed in place, and the page must not be labelled with a later version.
    const version = viewer.version;
    const { cursor, limit } = request.query;
    const qotdId = cursor ? null : await questionOfTheDay();
    const kept = cursor ? undefined : feedPages.find(viewer, limit, qotdId);
    if (kept) return sendJson(reply, kept);
    const page = await listFeed(db, authorQuestions, viewer, request.query);
    // The question of the day is viewed with the page, unless the viewer hid it or its author and they blocked each other.
    const qotdShown = qotdId !== null && !viewer.passes.has(qotdId) ? qotdId : null;
    const ids = qotdShown === null || page.ids.includes(qotdShown) ? page.ids : [...page.ids, qotdShown];
    const views = await questionViews(db, cards, viewer, ids);
    const viewsById = new Map(views.map((view) => [view.id, view]));
    const qotd = qotdShown === null ? undefined : viewsById.get(qotdShown);
    const feed: Feed = {
      qotd: qotd && (qotd.owner || !viewer.blocked.has(qotd.user)) ? qotd : null,
      questions: page.ids.flatMap((id) => viewsById.get(id) ?? []),
      next: page.next,
    };
    const body = Buffer.from(responseJson(feed));
    if (!cursor) {
      feedPages.keep(viewer.userId, { version, limit, questionOfTheDay: qotdId, authorLists: page.authorLists, cardReads: cardReadsOf(views), body });
    }
    return sendJson(reply, body);
  });

  app.get(
    '/polls/category/:category/',
    { schema: { tags, params: categoryParamsSchema, querystring: pageQuerySchema, response: { 200: questionPageSchema, ...errors } } },
    async (request) => {
      const category = await db.selectFrom('categories').select('id').where('id', '=', request.params.category).executeTakeFirst();
      if (!category) throw new NotFoundError('No such category');
      const viewer = await viewerState(request);
      return pageView(viewer, await listCategory(db, viewer.userId, category.id, request.query));
    },
  );

  app.get(
    '/polls/tag/:tag/',
    { schema: { tags, params: tagParamsSchema, querystring: pageQuerySchema, response: { 200: questionPageSchema, ...errors } } },
    async (request) => {
      const viewer = await viewerState(request);
      return pageView(viewer, await listTag(db, viewer.userId, request.params.tag.toLowerCase(), request.query));
    },
  );

  app.get('/polls/question/:id/', { schema: { tags, params: idParamsSchema, response: { 200: questionSchema, ...errors } } }, async (request) => {
    const viewer = await viewerState(request);
    const { card } = await cardForAction(db, cards, viewer, request.params.id);
    const [view] = await questionViews(db, cards, viewer, [card.id]);
    return view;
  });

  app.post(
    '/polls/create/',
    { schema: { tags, body: createQuestionBodySchema, response: { 200: createQuestionResponseSchema, ...errors } } },
    async (request) => {
      const viewer = await viewerState(request);
      const id = await db.transaction().execute((trx) => createQuestion(trx, viewer.userId, request.body));
      authorQuestions.asked(viewer.userId, id);
      app.changes.publish({ kind: 'author', id: viewer.userId });
      const [question] = await questionViews(db, cards, viewer, [id]);
      return { question };
    },
  );

  app.post(
    '/polls/answer/:id/',
    { schema: { tags, params: idParamsSchema, body: answerBodySchema, response: { 200: questionSchema, ...errors, 409: errorBodySchema } } },
    async (request) => {
      const viewer = await viewerState(request);
      const { card } = await cardForAction(db, cards, viewer, request.params.id);
      const { choice } = request.body;
      checkChoice(card.kind, choice);
      // Caught by the unique index too, but refused here a repeat never costs a batch its commit.
      if (viewer.votes.has(card.id)) throw new ConflictError('You already answered this question');
      const { seq, voterVersion } = await votes.record({ questionId: card.id, voter: viewer.voter, choice });
      ownStateMoved(request, voterVersion, (state) => state.votes.set(card.id, { choice, seq }));
      cards.votesCommitted([{ questionId: card.id, choice, seq }]);
      app.changes.publish({ kind: 'question', id: card.id });
      app.live.publish(card.id, viewer.userId);
      // As of this vote: the state this call began with may have been replaced meanwhile.
      const [view] = await questionViews(db, cards, await viewers.get(db, viewer.userId, voterVersion), [card.id]);
      return view;
    },
  );

  for (const liked of [true, false]) {
    app.post(
      liked ? '/polls/like/:id/' : '/polls/unlike/:id/',
      { schema: { tags, params: idParamsSchema, response: { 200: likedSchema, ...errors } } },
      async (request) => {
        const viewer = await viewerState(request);
        const { card } = await cardForAction(db, cards, viewer, request.params.id);
        const version = await db.transaction().execute((trx) => setLiked(trx, viewer.userId, card.id, liked));
        if (version !== null) {
          ownStateMoved(request, version, (state) => (liked ? state.likes.add(card.id) : state.likes.delete(card.id)));
          cards.likesChanged(card.id, liked ? 1 : -1);
          app.changes.publish({ kind: 'question', id: card.id });
          app.live.publish(card.id, viewer.userId);
        }
        return { liked };
      },
    );
  }

  for (const passed of [true, false]) {
    app.post(
      passed ? '/polls/pass/:id/' : '/polls/unpass/:id/',
      { schema: { tags, params: idParamsSchema, response: { 200: passedSchema, ...errors } } },
      async (request) => {
        const viewer = await viewerState(request);
        const { card } = await cardForAction(db, cards, viewer, request.params.id);
        const version = await db.transaction().execute((trx) => setPassed(trx, viewer.userId, card.id, passed));
        ownStateMoved(request, version, (state) => (passed ? state.passes.add(card.id) : state.passes.delete(card.id)));
        return { passed };
      },
    );
  }

  const userLists = { questions: listAskedBy, answered: listAnsweredBy, liked: listLikedBy };
  for (const [name, list] of Object.entries(userLists)) {
    app.get(`/polls/user/${name}/`, { schema: { tags, querystring: pageQuerySchema, response: { 200: questionPageSchema, ...errors } } }, async (request) => {
      const viewer = await viewerState(request);
      return pageView(viewer, await list(db, viewer.userId, viewer.userId, request.query));
    });
    app.get(
      `/polls/user/:user/${name}/`,
      { schema: { tags, params: userParamsSchema, querystring: pageQuerySchema, response: { 200: questionPageSchema, ...errors } } },
      async (request) => {
        const viewer = await viewerState(request);
        if (!(await userExists(db, request.params.user))) throw new NotFoundError('No such user');
        return pageView(viewer, await list(db, viewer.userId, request.params.user, request.query));
      },
    );
  }
};
