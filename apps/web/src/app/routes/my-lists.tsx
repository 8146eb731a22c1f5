import { PageHeader } from '../../components/ui/page-header';
import { useUserQuestions, type UserListKind } from '../../features/questions/api/get-user-questions';
import { QuestionList } from '../../features/questions/components/question-list';
import { PersonalStats } from '../../features/social/components/personal-stats';

const pages: Record<UserListKind, { title: string; empty: string }> = {
  asked: { title: 'My questions', empty: 'You have not asked anything yet. Tap ASK to start a poll.' },
  answered: { title: 'Answered', empty: 'You have not answered any question yet.' },
  liked: { title: 'Liked', empty: 'You have not liked any question yet.' },
};

/** The viewer's own lists, under the personal stats that switch between them. */
function MyList({ kind }: { kind: UserListKind }) {
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

export const WallRoute = () => <MyList kind="asked" />;
export const AnsweredRoute = () => <MyList kind="answered" />;
export const LikesRoute = () => <MyList kind="liked" />;
