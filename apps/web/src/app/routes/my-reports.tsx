import { useIntl } from 'react-intl';
import { MyReports } from '../../features/moderation/components/my-reports';

export function Component() {
  const intl = useIntl();
  return (
    <>
      <title>{intl.formatMessage({ id: 'reports.mine.pageTitle' })}</title>
      <MyReports />
    </>
  );
}
