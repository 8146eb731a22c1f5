import { PageHeader } from '../../components/ui/page-header';
import { useUserQuestions, type UserListKind } from '../../features/questions/api/get-user-questions';
import { QuestionList } from '../../features/questions/components/question-list';
import { PersonalStats } from '../../features/social/components/personal-stats';
import { useRouteHandle, type ListHandle } from '../route-handle';

const pages: Record<UserListKind, { title: string; empty: string }> = {
  asked: { title: 'My questions', empty: 'You have not asked anything yet. Tap ASK to start a poll.' },
  answered: { title: 'Answered', empty: 'You have not answered any question yet.' },
  liked: { title: 'Liked', empty: 'You have not liked any question yet.' },
};

/**
 * The viewer's own asked, answered or liked questions, under the personal stats that switch between them; the route
 * names the list.
 */
export function Component() {
  const { list: kind } = useRouteHandle<ListHandle>();
  const list = useUserQuestions(kind);
  const page = pages[kind];
  return (
    <div className="page">
      <title>{`${page.title} · POLLSCOPE`}</title>
      <PageHeader title={page.title} />
      <PersonalStats />
      <QuestionList list={list} emptyMessage={page.empty} label={page.title} />
    </div>
  );
}
