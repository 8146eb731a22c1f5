import { FormattedMessage, useIntl } from 'react-intl';
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
  const intl = useIntl();
  return (
    <AuthPage title={intl.formatMessage({ id: 'login.title' })} subtitle={intl.formatMessage({ id: 'login.subtitle' })}>
      <title>{intl.formatMessage({ id: 'login.pageTitle' })}</title>
      {accountDeleted && (
        <Banner tone="success">
          <FormattedMessage id="login.accountDeleted" />
        </Banner>
      )}
      <div className="card">
        <LoginForm destination={destination} onSignedIn={(token) => signIn(token, destination)} />
      </div>
    </AuthPage>
  );
}
