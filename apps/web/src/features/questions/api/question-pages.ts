import type { Question, QuestionPage } from '@pollscope/contract';
import { mutate } from 'swr';
import { unstable_serialize, type SWRInfiniteConfiguration } from 'swr/infinite';
import type { ApiPath } from '../../../lib/api-path';
import { pageKeys, useCursorPages } from '../../../lib/cursor-pages';

/** A page of questions: one of a list sent in pages, or a whole list (trending), which has no `next`. */
type ListPage = Pick<QuestionPage, 'questions'> & Partial<Pick<QuestionPage, 'next'>>;

/** The page with a fresh copy of one of its questions (the question of the day included). */
function withQuestion<Page extends ListPage>(page: Page, question: Question): Page {
  const qotd = 'qotd' in page && (page.qotd as Question | null)?.id === question.id ? { qotd: question } : {};
  return {
    ...page,
    ...qotd,
    questions: page.questions.map((listed) => (listed.id === question.id ? question : listed)),
  };
}

/**
 * Drops a list and its pages from the cache, so it loads afresh when next shown (at once if it is
 * on screen), even within the dedupe interval: for when something elsewhere changed what belongs
 * in it, such as a new question on the wall or a new connection's questions in the feed.
 */
export async function forgetQuestionPages(path: string): Promise<void> {
  await mutate((key) => typeof key === 'string' && (key === path || key.startsWith(`${path}?`)), undefined, {
    revalidate: false,
  });
  await mutate(unstable_serialize(pageKeys(path)), undefined);
}

/** A paged list of questions, grown one page at a time by "Load more". */
export function useQuestionPages<Page extends ListPage>(
  path: ApiPath<Page>,
  config?: SWRInfiniteConfiguration<NoInfer<Page>>,
) {
  const { mutate, ...list } = useCursorPages<Page>(path, config);
  return {
    ...list,
    questions: list.pages.flatMap((page) => page.questions),
    reload: () => mutate(),
    /** Keeps the cached pages in step with a vote or a like, without asking the server again. */
    update: (question: Question) =>
      mutate((current) => current?.map((page) => withQuestion(page, question)), { revalidate: false }),
  };
}

export type QuestionPages = ReturnType<typeof useQuestionPages>;
