import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { useGoBack } from '../../hooks/use-go-back';
import { forgetMyQuestions } from '../../features/questions/api/get-user-questions';
import { CreateQuestionForm } from '../../features/questions/components/create-question-form';
import { useCategories } from '../../features/reference/api/get-categories';

export function Component() {
  const { data: categories = [] } = useCategories();
  const navigate = useNavigate();
  const goBack = useGoBack();
  return (
    <div className="page">
      <title>Create Poll · POLLSCOPE</title>
      <PageHeader title="Create Poll" subtitle="Ask the community. Everyone sees the results after they vote." />
      <CreateQuestionForm
        categories={categories}
        onCreated={() => {
          void forgetMyQuestions();
          void navigate(paths.wall.getHref());
        }}
        onBack={goBack}
      />
    </div>
  );
}
