import { Banner } from '../../components/ui/banner';
import { PageHeader } from '../../components/ui/page-header';
import { Loading } from '../../components/ui/loading';
import { forgetFeed } from '../../features/questions/api/get-feed';
import { useConnections } from '../../features/social/api/get-connections';
import { ConnectionsTable } from '../../features/social/components/connections-table';
import { SuggestedPeople } from '../../features/social/components/suggested-people';

export function Component() {
  const { data: connections, error, mutate } = useConnections();
  return (
    <div className="page">
      <title>Connections · POLLSCOPE</title>
      <PageHeader title="My Connections" subtitle="People whose questions fill your feed." />
      {error && <Banner tone="error">{(error as Error).message}</Banner>}
      {!connections && !error && <Loading />}
      {connections && <ConnectionsTable connections={connections} />}
      <SuggestedPeople
        onConnectedChange={() => {
          void mutate();
          void forgetFeed();
        }}
      />
    </div>
  );
}
