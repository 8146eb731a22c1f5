import { Banner } from '../../components/ui/banner';
import { PageHeader } from '../../components/ui/page-header';
import { Loading } from '../../components/ui/loading';
import { useSiteStats } from '../../features/site/api/get-site-stats';
import { SiteStatsView } from '../../features/site/components/site-stats-view';

export function Component() {
  const { data: stats, error } = useSiteStats();
  return (
    <div className="page">
      <title>Stats · POLLSCOPE</title>
      <PageHeader title="Stats" subtitle="The POLLSCOPE community at a glance." />
      {error && <Banner tone="error">{(error as Error).message}</Banner>}
      {!stats && !error && <Loading />}
      {stats && <SiteStatsView stats={stats} />}
    </div>
  );
}
