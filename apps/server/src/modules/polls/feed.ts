import type { Feed, PageQuery } from '@pollscope/contract';
import { listPage, listedViews, type Reader } from '../../views/pipeline.js';
import type { FeedPages } from '../../views/feed-pages.js';
import type { ModerationMarks } from '../../views/moderation-marks.js';
import type { QuestionList, QuestionLists } from '../../views/question-lists.js';
import { responseJson } from '../../views/questions.js';
import type { ViewerState } from '../../views/viewer-states.js';
import { keptList } from './lists.js';

/**
 * The viewer's feed, as the JSON sent: today's question and the questions of the people they
 * follow. Its first page is kept for the viewer (`memory.feedPages`) until their state, today's
 * question or what moderators withheld moves on, or a list or card it read changes.
 */
export async function feedJson(
  reader: Reader & { viewer: ViewerState },
  memory: {
    lists: QuestionLists;
    feedPages: FeedPages;
    questionOfTheDay: () => Promise<number | null>;
    moderation: ModerationMarks;
  },
  query: PageQuery,
): Promise<Buffer> {
  const { viewer } = reader;
  // Taken before anything awaits: the state is changed in place, and the page must not be labelled with a later
  // version.
  const version = viewer.version;
  const moderationVersion = memory.moderation.version;
  const { cursor, limit } = query;
  const qotdId = cursor ? null : await memory.questionOfTheDay();
  const kept = cursor ? undefined : memory.feedPages.find(viewer, limit, qotdId, moderationVersion);
  if (kept) return kept;
  const authorLists: QuestionList[] = [];
  const followees = keptList(
    reader.db,
    memory.lists,
    viewer.followees.map((id) => ({ by: 'author', id })),
    authorLists,
  );
  const [feedPage, qotd] = await Promise.all([
    listPage(reader, followees, query),
    qotdId === null ? [] : listedViews(reader, [qotdId]),
  ]);
  const feed: Feed = { qotd: qotd[0] ?? null, questions: feedPage.questions, next: feedPage.next };
  const body = Buffer.from(responseJson(feed));
  if (!cursor)
    memory.feedPages.keep(viewer.userId, {
      version,
      limit,
      questionOfTheDay: qotdId,
      moderationVersion,
      authorLists,
      cardReads: feedPage.reads,
      body,
    });
  return body;
}
