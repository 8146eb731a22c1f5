import { useIntl } from 'react-intl';
import { Banner } from '../../components/ui/banner';
import { PageHeader } from '../../components/ui/page-header';
import { Loading } from '../../components/ui/loading';
import { useSettings } from '../../features/account/api/get-settings';
import { SettingsForm } from '../../features/account/components/settings-form';
import { accountMessages } from '../../features/account/form-messages';
import { PushSwitch } from '../../features/push/components/push-switch';
import { say } from '../../lib/form-message';

export function Component() {
  const { data: settings, error } = useSettings();
  const intl = useIntl();
  return (
    <div className="page">
      <title>{intl.formatMessage({ id: 'settings.pageTitle' })}</title>
      <PageHeader
        title={intl.formatMessage({ id: 'settings.title' })}
        subtitle={intl.formatMessage({ id: 'settings.subtitle' })}
      />
      {error && <Banner tone="error">{say(intl, accountMessages.loadFailed)}</Banner>}
      {!settings && !error && <Loading />}
      {settings && <SettingsForm initial={settings} />}
      <PushSwitch />
    </div>
  );
}
