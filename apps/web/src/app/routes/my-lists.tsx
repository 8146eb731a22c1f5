import { useIntl } from 'react-intl';
import { PageHeader } from '../../components/ui/page-header';
import { useUserQuestions, type UserListKind } from '../../features/questions/api/get-user-questions';
import { QuestionList } from '../../features/questions/components/question-list';
import { PersonalStats } from '../../features/social/components/personal-stats';
import type { MessageId } from '../../i18n/i18n-provider';
import { useRouteHandle, type ListHandle } from '../route-handle';

const pages: Record<UserListKind, { title: MessageId; empty: MessageId }> = {
  asked: { title: 'myLists.asked.title', empty: 'myLists.asked.empty' },
  answered: { title: 'myLists.answered.title', empty: 'myLists.answered.empty' },
  liked: { title: 'myLists.liked.title', empty: 'myLists.liked.empty' },
};

/**
 * The viewer's own asked, answered or liked questions, under the personal stats that switch between them; the route
 * names the list.
 */
export function Component() {
  const intl = useIntl();
  const { list: kind } = useRouteHandle<ListHandle>();
  const list = useUserQuestions(kind);
  const page = pages[kind];
  const title = intl.formatMessage({ id: page.title });
  return (
    <div className="page">
      <title>{intl.formatMessage({ id: 'myLists.pageTitle' }, { title })}</title>
      <PageHeader title={title} />
      <PersonalStats />
      <QuestionList list={list} emptyMessage={intl.formatMessage({ id: page.empty })} label={title} />
    </div>
  );
}
