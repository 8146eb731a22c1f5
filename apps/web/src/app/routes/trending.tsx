import { useIntl } from 'react-intl';
import { PageHeader } from '../../components/ui/page-header';
import { useTrending } from '../../features/questions/api/get-trending';
import { CategoryBar } from '../../features/questions/components/category-bar';
import { QuestionList } from '../../features/questions/components/question-list';
import { useCategories } from '../../features/reference/api/get-categories';

export function Component() {
  const intl = useIntl();
  const { data: categories = [] } = useCategories();
  const list = useTrending();
  return (
    <div className="page">
      <title>{intl.formatMessage({ id: 'trending.pageTitle' })}</title>
      <CategoryBar categories={categories} />
      <PageHeader
        title={intl.formatMessage({ id: 'trending.title' })}
        subtitle={intl.formatMessage({ id: 'trending.subtitle' })}
      />
      <QuestionList
        list={list}
        emptyMessage={intl.formatMessage({ id: 'trending.empty' })}
        label={intl.formatMessage({ id: 'trending.listLabel' })}
      />
    </div>
  );
}
