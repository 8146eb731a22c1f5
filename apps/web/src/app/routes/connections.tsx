import { useIntl } from 'react-intl';
import { Banner } from '../../components/ui/banner';
import { PageHeader } from '../../components/ui/page-header';
import { Loading } from '../../components/ui/loading';
import { forgetFeed } from '../../features/questions/api/get-feed';
import { useConnections } from '../../features/social/api/get-connections';
import { ConnectionsTable } from '../../features/social/components/connections-table';
import { SuggestedPeople } from '../../features/social/components/suggested-people';
import { useErrorText } from '../../hooks/use-error-text';

export function Component() {
  const intl = useIntl();
  const errorText = useErrorText();
  const { data: connections, error, mutate } = useConnections();
  return (
    <div className="page">
      <title>{intl.formatMessage({ id: 'connections.pageTitle' })}</title>
      <PageHeader
        title={intl.formatMessage({ id: 'connections.title' })}
        subtitle={intl.formatMessage({ id: 'connections.subtitle' })}
      />
      {error && <Banner tone="error">{errorText(error)}</Banner>}
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
