import { createContext, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { mutate, SWRConfig, type SWRConfiguration } from 'swr';
import { feedKey, feedPagesKey } from '../features/questions/api/get-feed';
import { forgetServerRenderedAnswers, serverRenderedAnswers } from '../lib/server-rendered';
import { swrDefaults } from '../lib/swr-config';

/**
 * What the page's feed was rendered from, if the server rendered it: read from the page in the
 * browser, given by the server's renderer there (first-screen-on-server.tsx), one render at a time.
 */
export const RenderedAnswers = createContext<() => Record<string, unknown> | null>(serverRenderedAnswers);

/** The answers by the data cache's keys: the feed's as its list of pages. */
function cacheEntries(answers: Record<string, unknown>): Record<string, unknown> {
  const { [feedKey]: feedPage, ...rest } = answers;
  return { ...rest, [feedPagesKey]: [feedPage] };
}

/**
 * The data cache, whose first rendering is the server's when it rendered the feed: the answers it
 * rendered from are the data of those paths in that rendering, then go into the cache and leave
 * the page. Only then: as the cache's fallback for good, they would come back whenever the cache
 * forgets a path (the feed, once the person follows someone). A person signing in starts a new
 * page (features/auth/sign-in.ts), so the data is always the current person's.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  const [rendered, setRendered] = useState(useContext(RenderedAnswers));
  useEffect(() => {
    if (!rendered) return;
    const entries = Object.entries(cacheEntries(rendered));
    void Promise.all(entries.map(([key, data]) => mutate(key, data, { revalidate: false }))).then(() => {
      forgetServerRenderedAnswers();
      setRendered(null);
    });
    // Once, with the answers the page came with.
  }, []);
  const settings = useMemo<SWRConfiguration>(
    () => (rendered ? { ...swrDefaults, fallback: cacheEntries(rendered) } : swrDefaults),
    [rendered],
  );
  return <SWRConfig value={settings}>{children}</SWRConfig>;
}
