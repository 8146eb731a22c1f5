import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { buttonClass } from '../../components/ui/button';
import { SearchIcon } from '../../components/ui/icons';
import { paths } from '../../config/paths';

export function Component() {
  const intl = useIntl();
  return (
    <div className="card empty-state not-found">
      <title>{intl.formatMessage({ id: 'notFound.pageTitle' })}</title>
      <SearchIcon />
      <h1>
        <FormattedMessage id="notFound.title" />
      </h1>
      <p>
        <FormattedMessage id="notFound.text" />
      </p>
      <Link to={paths.home.getHref()} className={buttonClass({ variant: 'primary' })}>
        <FormattedMessage id="notFound.goHome" />
      </Link>
    </div>
  );
}
