import { useIntl } from 'react-intl';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { Banner } from '../../components/ui/banner';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { destinationIn, withDestination } from '../../lib/destination';
import { useQuizzes } from '../../features/auth/api/get-quizzes';
import { AuthPage } from '../../features/auth/components/auth-page';
import { QuizFlow } from '../../features/auth/components/quiz-flow';
import { useErrorText } from '../../hooks/use-error-text';

export function Component() {
  const { data: items, error } = useQuizzes();
  const navigate = useNavigate();
  const intl = useIntl();
  const errorText = useErrorText();
  // Sign-up, then on to where the visitor was headed (a shared question).
  const register = withDestination(paths.register.getHref(), destinationIn(useSearchParams()[0]));
  if (items?.length === 0) return <Navigate to={register} replace />;
  return (
    <AuthPage title={intl.formatMessage({ id: 'quiz.title' })} subtitle={intl.formatMessage({ id: 'quiz.subtitle' })}>
      <title>{intl.formatMessage({ id: 'quiz.pageTitle' })}</title>
      {error && <Banner tone="error">{errorText(error)}</Banner>}
      {!items && !error && <Loading />}
      {items && <QuizFlow items={items} onFinished={() => void navigate(register)} />}
    </AuthPage>
  );
}
