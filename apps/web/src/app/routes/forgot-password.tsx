import { useIntl } from 'react-intl';
import { AuthPage } from '../../features/auth/components/auth-page';
import { ForgotPasswordForm } from '../../features/auth/components/forgot-password-form';

export function Component() {
  const intl = useIntl();
  return (
    <AuthPage
      title={intl.formatMessage({ id: 'forgotPassword.title' })}
      subtitle={intl.formatMessage({ id: 'forgotPassword.subtitle' })}
    >
      <title>{intl.formatMessage({ id: 'forgotPassword.pageTitle' })}</title>
      <div className="card">
        <ForgotPasswordForm />
      </div>
    </AuthPage>
  );
}
