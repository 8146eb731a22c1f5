import { useIntl } from 'react-intl';
import { useParams } from 'react-router';
import { Tabs } from '../../components/ui/tabs';
import { paths } from '../../config/paths';
import { forgetFeed } from '../../features/questions/api/get-feed';
import { useUserQuestions, type UserListKind } from '../../features/questions/api/get-user-questions';
import { QuestionList } from '../../features/questions/components/question-list';
import { ProfileHeader } from '../../features/social/components/profile-header';
import type { MessageId } from '../../i18n/i18n-provider';
import { useRouteHandle, type ListHandle } from '../route-handle';

/** Each list's name for screen readers, and what it says when empty. */
const listTexts: Record<UserListKind, { label: MessageId; empty: MessageId }> = {
  asked: { label: 'user.list.asked', empty: 'user.empty.asked' },
  answered: { label: 'user.list.answered', empty: 'user.empty.answered' },
  liked: { label: 'user.list.liked', empty: 'user.empty.liked' },
};

/** Another person's asked, answered or liked questions, under their profile; the route names the list. */
export function Component() {
  const intl = useIntl();
  const { list: kind } = useRouteHandle<ListHandle>();
  const { userId = '' } = useParams();
  const list = useUserQuestions(kind, userId);
  // The API names no "me"; the viewer's own questions come back marked as theirs.
  const asked = useUserQuestions('asked', userId);
  const isSelf = asked.questions.some((question) => question.owner);
  return (
    <div className="page">
      <title>{intl.formatMessage({ id: 'user.pageTitle' })}</title>
      <ProfileHeader userId={userId} isSelf={isSelf} onRelationChanged={() => void forgetFeed()} />
      <Tabs
        label={intl.formatMessage({ id: 'user.tabs.label' })}
        tabs={[
          { label: intl.formatMessage({ id: 'user.tabs.asked' }), to: paths.user.getHref(userId) },
          { label: intl.formatMessage({ id: 'user.tabs.answered' }), to: paths.userAnswered.getHref(userId) },
          { label: intl.formatMessage({ id: 'user.tabs.liked' }), to: paths.userLikes.getHref(userId) },
        ]}
      />
      <QuestionList
        list={list}
        emptyMessage={intl.formatMessage({ id: listTexts[kind].empty })}
        label={intl.formatMessage({ id: listTexts[kind].label })}
      />
    </div>
  );
}
