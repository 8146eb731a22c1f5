import { useSearchParams } from 'react-router';
import { destinationIn } from '../../lib/destination';
import { AuthPage } from '../../features/auth/components/auth-page';
import { LoginForm } from '../../features/auth/components/login-form';
import { signIn } from '../../features/auth/sign-in';

export function Component() {
  const destination = destinationIn(useSearchParams()[0]);
  return (
    <AuthPage title="Welcome back" subtitle="Log in to see what your connections are asking.">
      <title>Log in · POLLSCOPE</title>
      <div className="card">
        <LoginForm destination={destination} onSignedIn={(token) => signIn(token, destination)} />
      </div>
    </AuthPage>
  );
}
