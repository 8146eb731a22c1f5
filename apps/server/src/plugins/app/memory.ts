import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { registerCacheMetrics } from '../../lib/metrics.js';
import { sessionsOf, type Sessions } from '../../modules/auth/index.js';
import { SearchResults, TrendingCounts } from '../../modules/discovery/index.js';
import { NoiseStore, PairTables, RelatedCache, SegmentTables } from '../../modules/insights/index.js';
import { questionOfTheDayFinder } from '../../modules/polls/index.js';
import type { CryptoRandom } from '../../private-release/discrete-noise.js';
import { FeedPages } from '../../views/feed-pages.js';
import { ModerationMarks } from '../../views/moderation-marks.js';
import { QuestionCards } from '../../views/question-cards.js';
import { QuestionLists } from '../../views/question-lists.js';
import { ViewerStates } from '../../views/viewer-states.js';

/**
 * What one instance keeps in memory to answer without the database. The read pipeline's pieces
 * come from views/, the others from the module area that owns them (through its index.ts): each is
 * built here, and changed only by `applyChange` (changes/apply.ts) or by reading it again.
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
  { name: 'memory', dependencies: ['metrics', 'redis'] },
);
