import { PageHeader } from '../../components/ui/page-header';
import { useTrending } from '../../features/questions/api/get-trending';
import { CategoryBar } from '../../features/questions/components/category-bar';
import { QuestionList } from '../../features/questions/components/question-list';
import { useCategories } from '../../features/reference/api/get-categories';

export function Component() {
  const { data: categories = [] } = useCategories();
  const list = useTrending();
  return (
    <div className="page">
      <title>Trending · POLLSCOPE</title>
      <CategoryBar categories={categories} />
      <PageHeader title="Trending" subtitle="The questions answered most in the last 24 hours." />
      <QuestionList
        list={list}
        emptyMessage="No question was answered in the last 24 hours."
        label="Trending questions"
      />
    </div>
  );
}
