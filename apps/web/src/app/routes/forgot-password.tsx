import { AuthPage } from '../../features/auth/components/auth-page';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form';

export function Component() {
  return (
    <AuthPage
      title="Forgot your password?"
      subtitle="Enter the email you sign in with, and we will mail you a link to choose a new one."
    >
      <title>Forgot password · POLLSCOPE</title>
      <div className="card">
        <ForgotPasswordForm />
      </div>
    </AuthPage>
  );
}
