import { Link, useSearchParams } from 'react-router';
import { Banner } from '../../components/ui/banner';
import { paths } from '../../config/paths';
import { AuthPage } from '../../features/auth/components/auth-page';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';
import { signIn } from '../../features/auth/sign-in';

export function Component() {
  const [search] = useSearchParams();
  const token = search.get('token');
  return (
    <AuthPage title="Choose a new password" subtitle="Pick one you use nowhere else.">
      <title>New password · POLLSCOPE</title>
      <div className="card">
        {token ? (
          <ResetPasswordForm token={token} onSignedIn={signIn} />
        ) : (
          <Banner tone="error">
            <span>
              This link is not complete: open the one in the mail again, or{' '}
              <Link to={paths.forgotPassword.getHref()}>ask for a new link</Link>.
            </span>
          </Banner>
        )}
      </div>
    </AuthPage>
  );
}
