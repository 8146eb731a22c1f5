import { useParams } from 'react-router';
import { Tabs } from '../../components/ui/tabs';
import { paths } from '../../config/paths';
import { forgetFeed } from '../../features/questions/api/get-feed';
import { useUserQuestions, type UserListKind } from '../../features/questions/api/get-user-questions';
import { QuestionList } from '../../features/questions/components/question-list';
import { ProfileHeader } from '../../features/social/components/profile-header';
import { useRouteHandle, type ListHandle } from '../route-handle';

const emptyMessages: Record<UserListKind, string> = {
  asked: 'No questions asked yet.',
  answered: 'No questions answered yet.',
  liked: 'No questions liked yet.',
};

/** Another person's asked, answered or liked questions, under their profile; the route names the list. */
export function Component() {
  const { list: kind } = useRouteHandle<ListHandle>();
  const { userId = '' } = useParams();
  const list = useUserQuestions(kind, userId);
  // The API names no "me"; the viewer's own questions come back marked as theirs.
  const asked = useUserQuestions('asked', userId);
  const isSelf = asked.questions.some((question) => question.owner);
  return (
    <div className="page">
      <title>Profile · POLLSCOPE</title>
      <ProfileHeader userId={userId} isSelf={isSelf} onRelationChanged={() => void forgetFeed()} />
      <Tabs
        label="Their questions"
        tabs={[
          { label: 'Asked', to: paths.user.getHref(userId) },
          { label: 'Answered', to: paths.userAnswered.getHref(userId) },
          { label: 'Liked', to: paths.userLikes.getHref(userId) },
        ]}
      />
      <QuestionList list={list} emptyMessage={emptyMessages[kind]} label={`Questions ${kind}`} />
    </div>
  );
}
