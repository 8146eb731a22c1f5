import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useSearchParams } from 'react-router';
import { Banner } from '../../components/ui/banner';
import { paths } from '../../config/paths';
import { AuthPage } from '../../features/auth/components/auth-page';
import { ResetPasswordForm } from '../../features/auth/components/reset-password-form';
import { signIn } from '../../features/auth/sign-in';

export function Component() {
  const [search] = useSearchParams();
  const token = search.get('token');
  const intl = useIntl();
  return (
    <AuthPage
      title={intl.formatMessage({ id: 'resetPassword.title' })}
      subtitle={intl.formatMessage({ id: 'resetPassword.subtitle' })}
    >
      <title>{intl.formatMessage({ id: 'resetPassword.pageTitle' })}</title>
      <div className="card">
        {token ? (
          <ResetPasswordForm token={token} onSignedIn={signIn} />
        ) : (
          <Banner tone="error">
            <span>
              <FormattedMessage
                id="resetPassword.incomplete"
                values={{ link: (chunks) => <Link to={paths.forgotPassword.getHref()}>{chunks}</Link> }}
              />
            </span>
          </Banner>
        )}
      </div>
    </AuthPage>
  );
}
