import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { ChangeOf } from '../../changes/change.js';
import type { Applier, Origin } from '../../changes/reactions.js';
import { registerCacheMetrics } from '../../lib/metrics.js';
import { sessionsApplier, sessionsOf, type Sessions } from '../../modules/auth/index.js';
import { SearchResults, TrendingCounts } from '../../modules/discovery/index.js';
import { NoiseStore, PairTables, RelatedCache, SegmentTables } from '../../modules/insights/index.js';
import { questionOfTheDayFinder } from '../../modules/polls/index.js';
import type { CryptoRandom } from '../../private-release/discrete-noise.js';
import { FeedPages } from '../../views/feed-pages.js';
import { ModerationMarks } from '../../views/moderation-marks.js';
import { QuestionCards } from '../../views/question-cards.js';
import { listsOfQuestion, QuestionLists } from '../../views/question-lists.js';
import { ViewerStates } from '../../views/viewer-states.js';

/**
 * What one instance keeps in memory to answer without the database. The read pipeline's pieces
 * come from views/, the others from the module area that owns them (through its index.ts): each is
 * built here, and changed only by the appliers registered here with the change layer or by reading it again.
 */
export interface Memory {
  cards: QuestionCards;
  viewers: ViewerStates;
  lists: QuestionLists;
  feedPages: FeedPages;
  sessions: Sessions;
  /** Today's question, once read: a stored choice never changes. */
  questionOfTheDay: () => Promise<number | null>;
  segmentTables: SegmentTables;
  pairTables: PairTables;
  related: RelatedCache;
  /** The votes of the last 24 hours per question: what is trending. */
  trending: TrendingCounts;
  /** Pages of search matches, by their words. */
  searches: SearchResults;
  /** What moderators withheld: questions removed or under review, people suspended. */
  moderation: ModerationMarks;
}

declare module 'fastify' {
  interface FastifyInstance {
    memory: Memory;
  }
}

const MB = 1024 * 1024;

/** What the read pipeline's copies (views/) do with each committed change. */
function readPipelineApplier({ cards, viewers, lists, feedPages, moderation }: Memory): Applier {
  const liked = (change: ChangeOf<'liked' | 'unliked'>, origin: Origin) => {
    const { questionId } = change;
    const by = change.kind === 'liked' ? 1 : -1;
    // A like has no place in an order: a card read elsewhere may count it already.
    if (origin === 'here') cards.likesChanged(questionId, by);
    else cards.staled(questionId);
    viewers.changed(change.userId, change.version, (state) =>
      by === 1 ? state.likes.add(questionId) : state.likes.delete(questionId),
    );
  };
  const passed = (change: ChangeOf<'passed' | 'unpassed'>) =>
    viewers.changed(change.userId, change.version, (state) =>
      change.kind === 'passed' ? state.passes.add(change.questionId) : state.passes.delete(change.questionId),
    );
  return {
    voted: ({ questionId, voterId, choice, seq, version }) => {
      // The vote's place in its question's order tells whether a card counts every vote before it.
      cards.voteCounted(questionId, choice, seq);
      viewers.changed(voterId, version, (state) => state.votes.set(questionId, { choice, seq }));
    },
    liked,
    unliked: liked,
    passed,
    unpassed: passed,
    asked: (change) => lists.asked(change.questionId, listsOfQuestion(change.authorId, change.categoryId, change.tags)),
    renamed: (change) => cards.authorRenamed(change.userId),
    profileChanged: null,
    followed: null,
    unfollowed: null,
    blocked: null,
    unblocked: null,
    sessionEnded: null,
    passwordChanged: null,
    notified: null,
    notificationsRead: null,
    accountDeleted: ({ userId, questionIds, touchedQuestionIds }) => {
      // Every copy forgets the person and their questions; what counted their votes or likes is read again.
      moderation.forget(userId, questionIds);
      cards.forget(questionIds);
      for (const questionId of touchedQuestionIds) cards.staled(questionId);
      lists.deleted(userId, questionIds);
      viewers.forget(userId);
      feedPages.forget(userId);
    },
    // Lists, search, trending, related, the share page and live streams ask the rules at each read; kept feed pages see
    // the version move.
    questionModerated: (change) => moderation.questionMarked(change.questionId, change.moderation),
    userSuspended: ({ userId, until }) => {
      // Their questions and profile are withheld at each read.
      moderation.suspended(userId, until);
      feedPages.forget(userId);
    },
    userUnsuspended: (change) => moderation.suspended(change.userId, undefined),
    moderatorActed: null,
    reported: null,
    missed: () => {
      moderation.staled();
      cards.staledAll();
      lists.staledAll();
    },
  };
}

/** What the copies of the module areas' own (trending, search, breakdowns, related lists) do with each change. */
function areasApplier({ trending, searches, segmentTables, pairTables, related }: Memory): Applier {
  return {
    voted: (change) => trending.voted(change.questionId, change.seq),
    liked: null,
    unliked: null,
    passed: null,
    unpassed: null,
    asked: () => searches.questionsChanged(),
    renamed: null,
    profileChanged: null,
    followed: null,
    unfollowed: null,
    blocked: null,
    unblocked: null,
    sessionEnded: null,
    passwordChanged: null,
    notified: null,
    notificationsRead: null,
    accountDeleted: ({ questionIds, touchedQuestionIds }) => {
      const changedQuestions = [...questionIds, ...touchedQuestionIds];
      segmentTables.forget(changedQuestions);
      pairTables.forget(changedQuestions);
      related.forget(changedQuestions);
      searches.questionsChanged();
      // Their votes of the last day no longer count: read again from the votes left.
      trending.staled();
    },
    questionModerated: null,
    userSuspended: null,
    userUnsuspended: null,
    moderatorActed: null,
    reported: null,
    missed: () => {
      trending.staled();
      searches.questionsChanged();
    },
  };
}

export const memoryPlugin = fp(
  async (app: FastifyInstance, { noiseRandom }: { noiseRandom?: CryptoRandom }) => {
    const { db, config } = app;
    const cards = new QuestionCards(config.questionCards);
    // Breakdown's and relate's releases draw their noise once, into the database every instance reads.
    const noiseStore = new NoiseStore(db, noiseRandom);
    const pairTables = new PairTables(db, noiseStore, config.pairTableCells);
    // Instances that share Redis read the session on every call: the state version it carries is
    // how one shows a person at once what they did through another.
    const viewers = new ViewerStates(config.viewerStatesMegabytes * MB, app.dialect);
    const sessions = sessionsOf(db, { keep: app.redis === null, maxKept: config.keptSessions, viewers });
    app.addHook('onClose', () => sessions.close());
    // Trending's votes, a large read every few minutes, come from a replica once it has caught up with the primary.
    const votesNow = async () => (await app.replicas?.upToNow())?.db ?? db;
    const memory = {
      cards,
      viewers,
      lists: new QuestionLists(config.questionListIds, config.questionListWindow),
      feedPages: new FeedPages(config.feedPagesMegabytes * MB),
      sessions,
      questionOfTheDay: questionOfTheDayFinder(db),
      segmentTables: new SegmentTables(db, noiseStore, config.segmentTableCells),
      pairTables,
      related: new RelatedCache(db, cards, pairTables, config.relatedListsKept),
      trending: new TrendingCounts(votesNow, config.trendingReloadSeconds * 1000),
      searches: new SearchResults(config.searchPagesKept),
      moderation: new ModerationMarks(db, (error) =>
        app.log.warn({ err: error }, 'moderation: reading what is withheld again failed'),
      ),
    } satisfies Memory;
    app.decorate('memory', memory);
    // Before the live streams' applier, which reads these copies.
    app.changes.addApplier(readPipelineApplier(memory));
    app.changes.addApplier(sessionsApplier(sessions));
    app.changes.addApplier(areasApplier(memory));
    // Once every plugin is registered, changes from the other instances are heard: a change heard
    // while this read runs makes it read again.
    app.addHook('onReady', () => memory.moderation.load());
    // Each cache's unit, and a unit's typical size where it is not bytes (as measured for the settings, config.ts).
    registerCacheMetrics(app.metrics, {
      question_cards: { stats: () => cards.stats(), unit: 'cards', bytesPerUnit: 1_800 },
      viewer_states: { stats: () => memory.viewers.stats(), unit: 'bytes', bytesPerUnit: 1 },
      question_lists: { stats: () => memory.lists.stats(), unit: 'ids', bytesPerUnit: 8 },
      feed_pages: { stats: () => memory.feedPages.stats(), unit: 'bytes', bytesPerUnit: 1 },
      sessions: { stats: () => sessions.stats(), unit: 'sessions', bytesPerUnit: 200 },
      segment_tables: { stats: () => memory.segmentTables.stats(), unit: 'cells', bytesPerUnit: 300 },
      pair_tables: { stats: () => pairTables.stats(), unit: 'cells', bytesPerUnit: 130 },
      related_lists: { stats: () => memory.related.stats(), unit: 'lists', bytesPerUnit: 3_000 },
      search_pages: { stats: () => memory.searches.stats(), unit: 'pages', bytesPerUnit: 1_000 },
    });
  },
  { name: 'memory', dependencies: ['metrics', 'redis', 'changes'] },
);
