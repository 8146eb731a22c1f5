import useSWRInfinite, { type SWRInfiniteConfiguration } from 'swr/infinite';
import type { ApiPath } from './api-path';

/**
 * A page of a list the API sends in pages: `next` is the cursor of the page after it, null (or none, for a list sent
 * whole) on the last one.
 */
interface CursorPage {
  next?: string | null;
}

/** The key of each page of a list: the list's path, then the path with the previous page's cursor. */
export function pageKeys(path: string) {
  return (index: number, previous: CursorPage | null): string | null => {
    if (index === 0) return path;
    if (!previous?.next) return null;
    return `${path}${path.includes('?') ? '&' : '?'}cursor=${encodeURIComponent(previous.next)}`;
  };
}

/** A list the API sends in pages, grown one page at a time by "Load more". */
export function useCursorPages<Page extends CursorPage>(
  path: ApiPath<Page>,
  config?: SWRInfiniteConfiguration<NoInfer<Page>>,
) {
  // SWR asks for the first page again whenever the list is shown or grows, so what changed on
  // another screen (a question asked or hidden, a notification read) is there on coming back.
  const { data, error, size, setSize, isLoading, mutate } = useSWRInfinite<Page>(pageKeys(path), config);
  const pages = data ?? [];
  return {
    pages,
    error: error as Error | undefined,
    isLoading,
    isLoadingMore: !error && size > pages.length && pages.length > 0,
    hasMore: Boolean(pages.at(-1)?.next),
    loadMore: () => setSize(size + 1),
    mutate,
  };
}
