import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { paths } from '../../config/paths';
import { PageHeader } from '../../components/ui/page-header';
import type { MessageId } from '../../i18n/i18n-provider';
import { useRouteHandle, type InfoPageHandle, type InfoPageName } from '../route-handle';

const CONTACT_ADDRESS = 'hello@pollscope.app';

/** The privacy page's points, in order. */
const privacyPoints: MessageId[] = [
  'info.privacy.results',
  'info.privacy.groups',
  'info.privacy.email',
  'info.privacy.profile',
  'info.privacy.sharing',
  'info.privacy.account',
];

const pages: Record<InfoPageName, { title: MessageId; pageTitle: MessageId; text: ReactNode }> = {
  contact: {
    title: 'info.contact.title',
    pageTitle: 'info.contact.pageTitle',
    text: (
      <>
        <p>
          <FormattedMessage id="info.contact.intro" />
        </p>
        <p>
          <FormattedMessage
            id="info.contact.write"
            values={{ email: <a href={`mailto:${CONTACT_ADDRESS}`}>{CONTACT_ADDRESS}</a> }}
          />
        </p>
      </>
    ),
  },
  privacy: {
    title: 'info.privacy.title',
    pageTitle: 'info.privacy.pageTitle',
    text: (
      <>
        <p>
          <FormattedMessage id="info.privacy.intro" />
        </p>
        <ul>
          {privacyPoints.map((point) => (
            <li key={point}>
              <FormattedMessage
                id={point}
                values={{ link: (chunks: ReactNode[]) => <Link to={paths.myAccount.getHref()}>{chunks}</Link> }}
              />
            </li>
          ))}
        </ul>
      </>
    ),
  },
};

/** The contact and privacy pages; the route names the page. */
export function Component() {
  const intl = useIntl();
  const { title, pageTitle, text } = pages[useRouteHandle<InfoPageHandle>().page];
  return (
    <div className="page">
      <title>{intl.formatMessage({ id: pageTitle })}</title>
      <PageHeader title={intl.formatMessage({ id: title })} />
      <div className="card prose">{text}</div>
    </div>
  );
}
