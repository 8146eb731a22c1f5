import { Banner } from '../../components/ui/banner';
import { PageHeader } from '../../components/ui/page-header';
import { Loading } from '../../components/ui/loading';
import { useConnections } from '../../features/social/api/get-connections';
import { ConnectionsTable } from '../../features/social/components/connections-table';

export function Component() {
  const { data: connections, error } = useConnections();
  return (
    <div className="page">
      <title>Connections · POLLSCOPE</title>
      <PageHeader title="My Connections" subtitle="People whose questions fill your feed." />
      {error && <Banner tone="error">{(error as Error).message}</Banner>}
      {!connections && !error && <Loading />}
      {connections && <ConnectionsTable connections={connections} />}
    </div>
  );
}
