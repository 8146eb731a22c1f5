import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link, useNavigate } from 'react-router';
import { Banner } from '../../components/ui/banner';
import { Button, buttonClass } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { Loading } from '../../components/ui/loading';
import { paths } from '../../config/paths';
import { useAccount } from '../../features/account/api/get-account';
import { DeleteAccountForm } from '../../features/account/components/delete-account-form';
import { DownloadData } from '../../features/account/components/download-data';
import { PersonalInfoForm } from '../../features/account/components/personal-info-form';
import { accountMessages } from '../../features/account/form-messages';
import { logout } from '../../features/auth/api/logout';
import { useCategories } from '../../features/reference/api/get-categories';
import { useCountries } from '../../features/reference/api/get-countries';
import { PersonalStats } from '../../features/social/components/personal-stats';
import { say } from '../../lib/form-message';
import type { LoginState } from '../route-handle';

export function Component() {
  const { data: account, error } = useAccount();
  const { data: countries = [] } = useCountries();
  const { data: categories = [] } = useCategories();
  const navigate = useNavigate();
  const intl = useIntl();
  const [leaving, setLeaving] = useState(false);

  async function signOut() {
    setLeaving(true);
    await logout();
    void navigate(paths.login.getHref(), { replace: true });
  }

  return (
    <div className="page">
      <title>{intl.formatMessage({ id: 'account.page.pageTitle' })}</title>
      <PageHeader
        title={intl.formatMessage({ id: 'account.page.title' })}
        actions={
          <>
            <Link to={paths.connections.getHref()} className={buttonClass()}>
              <FormattedMessage id="account.page.connections" />
            </Link>
            <Link to={paths.myReports.getHref()} className={buttonClass()}>
              <FormattedMessage id="account.page.reports" />
            </Link>
          </>
        }
      />
      <PersonalStats />
      {error && <Banner tone="error">{say(intl, accountMessages.loadFailed)}</Banner>}
      {!account && !error && <Loading />}
      {account && <PersonalInfoForm initial={account} countries={countries} categories={categories} />}
      <div className="form-actions">
        <Button variant="danger" pending={leaving} onClick={() => void signOut()}>
          <FormattedMessage id="account.page.logout" />
        </Button>
      </div>
      <DownloadData />
      <DeleteAccountForm
        onDeleted={() =>
          void navigate(paths.login.getHref(), { replace: true, state: { accountDeleted: true } satisfies LoginState })
        }
      />
    </div>
  );
}
