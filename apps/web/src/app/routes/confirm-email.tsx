import { FormattedMessage, useIntl } from 'react-intl';
import { useSearchParams } from 'react-router';
import { Banner } from '../../components/ui/banner';
import { ConfirmEmail } from '../../features/account/components/confirm-email';
import { AuthPage } from '../../features/auth/components/auth-page';

export function Component() {
  const [search] = useSearchParams();
  const token = search.get('token');
  const intl = useIntl();
  return (
    <AuthPage
      title={intl.formatMessage({ id: 'account.confirmEmail.title' })}
      subtitle={intl.formatMessage({ id: 'account.confirmEmail.subtitle' })}
    >
      <title>{intl.formatMessage({ id: 'account.confirmEmail.pageTitle' })}</title>
      <div className="card">
        {token ? (
          <ConfirmEmail token={token} />
        ) : (
          <Banner tone="error">
            <FormattedMessage id="account.confirmEmail.incomplete" />
          </Banner>
        )}
      </div>
    </AuthPage>
  );
}
