import { useIntl } from 'react-intl';
import { Banner } from '../../components/ui/banner';
import { PageHeader } from '../../components/ui/page-header';
import { Loading } from '../../components/ui/loading';
import { useSiteStats } from '../../features/site/api/get-site-stats';
import { SiteStatsView } from '../../features/site/components/site-stats-view';
import { useErrorText } from '../../hooks/use-error-text';

export function Component() {
  const intl = useIntl();
  const errorText = useErrorText();
  const { data: stats, error } = useSiteStats();
  return (
    <div className="page">
      <title>{intl.formatMessage({ id: 'stats.pageTitle' })}</title>
      <PageHeader
        title={intl.formatMessage({ id: 'stats.title' })}
        subtitle={intl.formatMessage({ id: 'stats.subtitle' })}
      />
      {error && <Banner tone="error">{errorText(error)}</Banner>}
      {!stats && !error && <Loading />}
      {stats && <SiteStatsView stats={stats} />}
    </div>
  );
}
