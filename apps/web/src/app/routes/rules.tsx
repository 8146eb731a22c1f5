import { useIntl } from 'react-intl';
import { CommunityRulesView } from '../../features/moderation/components/community-rules-view';

export function Component() {
  const intl = useIntl();
  return (
    <>
      <title>{intl.formatMessage({ id: 'rules.pageTitle' })}</title>
      <CommunityRulesView />
    </>
  );
}
