import { Banner } from '../../components/ui/banner';
import { PageHeader } from '../../components/ui/page-header';
import { Loading } from '../../components/ui/loading';
import { useSettings } from '../../features/account/api/get-settings';
import { SettingsForm } from '../../features/account/components/settings-form';
import { accountMessages } from '../../features/account/form-messages';
import { PushSwitch } from '../../features/push/components/push-switch';

export function Component() {
  const { data: settings, error } = useSettings();
  return (
    <div className="page">
      <title>Preferences · POLLSCOPE</title>
      <PageHeader title="PREFERENCES" subtitle="Your sign-in email, notifications and password." />
      {error && <Banner tone="error">{accountMessages.loadFailed}</Banner>}
      {!settings && !error && <Loading />}
      {settings && <SettingsForm initial={settings} />}
      <PushSwitch />
    </div>
  );
}
