import { useIntl } from 'react-intl';
import { useParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { useCategoryQuestions } from '../../features/questions/api/get-category-questions';
import { CategoryBar } from '../../features/questions/components/category-bar';
import { QuestionList } from '../../features/questions/components/question-list';
import { useCategories } from '../../features/reference/api/get-categories';
import { useCategoryName } from '../../lib/question-shape';

export function Component() {
  const intl = useIntl();
  const categoryName = useCategoryName();
  const { category = '' } = useParams();
  const { data: categories = [] } = useCategories();
  const list = useCategoryQuestions(category);
  const found = categories.find((candidate) => String(candidate.id) === category);
  const name = found ? categoryName(found) : intl.formatMessage({ id: 'category.unnamed' });
  return (
    <div className="page">
      <title>{`${name} · POLLSCOPE`}</title>
      <CategoryBar categories={categories} />
      <PageHeader eyebrow={intl.formatMessage({ id: 'category.eyebrow' })} title={name} />
      <QuestionList
        list={list}
        emptyMessage={intl.formatMessage({ id: 'category.empty' })}
        label={intl.formatMessage({ id: 'category.listLabel' }, { name })}
      />
    </div>
  );
}
