import { mutate } from 'swr';
import { unstable_serialize } from 'swr/infinite';
import { apiPath } from '../../../lib/api-path';
import { pageKeys } from '../../../lib/cursor-pages';
import { whenPrefetched } from '../../../lib/prefetch';
import { referenceData } from '../../../lib/swr-config';
import { forgetQuestionPages, useQuestionPages } from './question-pages';

export const feedKey = apiPath('/api/polls/questions/');
/** The cache's key of the feed's pages. */
export const feedPagesKey = unstable_serialize(pageKeys(feedKey));

/** The feed is not refetched when stale; following or blocking someone changes whose questions belong in it. */
export const forgetFeed = () => forgetQuestionPages(feedKey);

/** Questions from the people the viewer follows, with the question of the day on the first page. */
export function useFeed() {
  const list = useQuestionPages(feedKey, referenceData);
  return { ...list, qotd: list.pages[0]?.qotd ?? null };
}

/**
 * Puts the feed's first page in the cache as soon as the request started for it with the page
 * answers (src/early-data.ts), so that the feed shows its cards in its first render rather than
 * asking for them once rendered.
 */
export function keepStartedFeed(): Promise<void> {
  return whenPrefetched(feedKey, (page) => void mutate(feedPagesKey, [page], { revalidate: false }));
}
