import type { Question, QuestionPage } from '@pollscope/contract';
import { mutate } from 'swr';
import type { SWRInfiniteConfiguration } from 'swr/infinite';
import useSWRInfinite, { unstable_serialize } from 'swr/infinite';

/** The key of each page of a list: the list's path, then the path with the previous page's cursor. */
export function pageKeys(path: string) {
  return (index: number, previous: QuestionPage | null): string | null => {
    if (index === 0) return path;
    if (!previous?.next) return null;
    return `${path}?cursor=${encodeURIComponent(previous.next)}`;
  };
}

/** The page with a fresh copy of one of its questions (the question of the day included). */
function withQuestion<Page extends QuestionPage>(page: Page, question: Question): Page {
  const qotd = 'qotd' in page && (page.qotd as Question | null)?.id === question.id ? { qotd: question } : {};
  return { ...page, ...qotd, questions: page.questions.map((listed) => (listed.id === question.id ? question : listed)) };
}

/**
 * Drops a list and its pages from the cache, so it loads afresh when next shown (at once if it is
 * on screen), even within the dedupe interval: for when something elsewhere changed what belongs
 * in it, such as a new question on the wall or a new connection's questions in the feed.
 */
export async function forgetQuestionPages(path: string): Promise<void> {
  await mutate((key) => typeof key === 'string' && (key === path || key.startsWith(`${path}?`)), undefined, { revalidate: false });
  await mutate(unstable_serialize(pageKeys(path)), undefined);
}

/** A paged list of questions, grown one page at a time by "Load more". */
export function useQuestionPages<Page extends QuestionPage = QuestionPage>(path: string, config?: SWRInfiniteConfiguration<Page>) {
  // SWR asks for the first page again whenever the list is shown or grows, so a question asked,
  // answered or hidden on another screen is there when the viewer comes back.
  const { data, error, size, setSize, isLoading, mutate } = useSWRInfinite<Page>(pageKeys(path), config);
  const pages = data ?? [];
  const lastPage = pages[pages.length - 1];
  return {
    pages,
    questions: pages.flatMap((page) => page.questions),
    error: error as Error | undefined,
    isLoading,
    isLoadingMore: !error && size > pages.length && pages.length > 0,
    hasMore: Boolean(lastPage?.next),
    loadMore: () => setSize(size + 1),
    reload: () => mutate(),
    /** Keeps the cached pages in step with a vote or a like, without asking the server again. */
    update: (question: Question) => mutate((current) => current?.map((page) => withQuestion(page, question)), { revalidate: false }),
  };
}

export type QuestionPages = ReturnType<typeof useQuestionPages>;
