import { useLocation, useSearchParams } from 'react-router';
import { Banner } from '../../components/ui/banner';
import { destinationIn } from '../../lib/destination';
import { AuthPage } from '../../features/auth/components/auth-page';
import { LoginForm } from '../../features/auth/components/login-form';
import { signIn } from '../../features/auth/sign-in';
import type { LoginState } from '../route-handle';

export function Component() {
  const destination = destinationIn(useSearchParams()[0]);
  const { accountDeleted } = (useLocation().state ?? {}) as LoginState;
  return (
    <AuthPage title="Welcome back" subtitle="Log in to see what your connections are asking.">
      <title>Log in · POLLSCOPE</title>
      {accountDeleted && (
        <Banner tone="success">
          Your account is deleted, with your questions, votes and everything else of yours. Goodbye!
        </Banner>
      )}
      <div className="card">
        <LoginForm destination={destination} onSignedIn={(token) => signIn(token, destination)} />
      </div>
    </AuthPage>
  );
}
