import { useParams } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { useCategoryQuestions } from '../../features/questions/api/get-category-questions';
import { CategoryBar } from '../../features/questions/components/category-bar';
import { QuestionList } from '../../features/questions/components/question-list';
import { useCategories } from '../../features/reference/api/get-categories';

export function Component() {
  const { category = '' } = useParams();
  const { data: categories = [] } = useCategories();
  const list = useCategoryQuestions(category);
  const name = categories.find((candidate) => String(candidate.id) === category)?.name ?? 'Category';
  return (
    <div className="page">
      <title>{`${name} · POLLSCOPE`}</title>
      <CategoryBar categories={categories} />
      <PageHeader eyebrow="Category" title={name} />
      <QuestionList list={list} emptyMessage="No question in this category!" label={`Questions in ${name}`} />
    </div>
  );
}
