import { useIntl } from 'react-intl';
import { useSearchParams } from 'react-router';
import { destinationIn } from '../../lib/destination';
import { AuthPage } from '../../features/auth/components/auth-page';
import { RegisterForm } from '../../features/auth/components/register-form';
import { clearQuizAnswers, readQuizAnswers } from '../../features/auth/quiz-answers';
import { signIn } from '../../features/auth/sign-in';
import { useCountries } from '../../features/reference/api/get-countries';

export function Component() {
  const { data: countries = [] } = useCountries();
  const destination = destinationIn(useSearchParams()[0]);
  const intl = useIntl();
  return (
    <AuthPage
      title={intl.formatMessage({ id: 'register.title' })}
      subtitle={intl.formatMessage({ id: 'register.subtitle' })}
      wide
    >
      <title>{intl.formatMessage({ id: 'register.pageTitle' })}</title>
      <div className="card">
        <RegisterForm
          countries={countries}
          quiz={readQuizAnswers()}
          destination={destination}
          onRegistered={(token) => {
            clearQuizAnswers();
            signIn(token, destination);
          }}
        />
      </div>
    </AuthPage>
  );
}
