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
  return (
    <AuthPage title="Join POLLSCOPE" subtitle="Ask anything, answer everything, and see how people really split." wide>
      <title>Sign up · POLLSCOPE</title>
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
