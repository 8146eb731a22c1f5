import { useIntl } from 'react-intl';
import { useNavigate } from 'react-router';
import { PageHeader } from '../../components/ui/page-header';
import { paths } from '../../config/paths';
import { useGoBack } from '../../hooks/use-go-back';
import { forgetMyQuestions } from '../../features/questions/api/get-user-questions';
import { CreateQuestionForm } from '../../features/questions/components/create-question-form';
import { useCategories } from '../../features/reference/api/get-categories';

export function Component() {
  const intl = useIntl();
  const { data: categories = [] } = useCategories();
  const navigate = useNavigate();
  const goBack = useGoBack();
  return (
    <div className="page">
      <title>{intl.formatMessage({ id: 'create.pageTitle' })}</title>
      <PageHeader
        title={intl.formatMessage({ id: 'create.title' })}
        subtitle={intl.formatMessage({ id: 'create.subtitle' })}
      />
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
