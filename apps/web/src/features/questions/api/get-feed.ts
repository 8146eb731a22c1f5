import { api, type Feed } from '@pollscope/contract';
import { referenceData } from '../../../lib/swr-config';
import { forgetQuestionPages, useQuestionPages } from './question-pages';

export const feedKey = api.feed;

/** The feed is not refetched when stale; following or blocking someone changes whose questions belong in it. */
export const forgetFeed = () => forgetQuestionPages(feedKey);

/** Questions from the people the viewer follows, with the question of the day on the first page. */
export function useFeed() {
  const list = useQuestionPages<Feed>(feedKey, referenceData);
  return { ...list, qotd: list.pages[0]?.qotd ?? null };
}
