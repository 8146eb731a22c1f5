import { displayId, type Connection } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { useFormat } from '../../../i18n/format';
import './social.css';

/** A count that leads to the list it counts, when there is anything in it. */
function CountCell({ label, count, to }: { label: string; count: number; to: string }) {
  const format = useFormat();
  const shown = format.count(count);
  return (
    <td className="num" data-label={label}>
      {count > 0 ? <Link to={to}>{shown}</Link> : shown}
    </td>
  );
}

export function ConnectionsTable({ connections }: { connections: Connection[] }) {
  const intl = useIntl();
  const format = useFormat();
  const since = intl.formatMessage({ id: 'social.connections.since' });
  const name = intl.formatMessage({ id: 'social.connections.name' });
  const user = intl.formatMessage({ id: 'social.connections.user' });
  const asked = intl.formatMessage({ id: 'social.connections.asked' });
  const voted = intl.formatMessage({ id: 'social.connections.voted' });
  const liked = intl.formatMessage({ id: 'social.connections.liked' });
  return (
    <div className="card connections">
      <table className="table connections__table">
        <caption className="sr-only">
          <FormattedMessage id="social.connections.caption" />
        </caption>
        <thead>
          <tr>
            <th scope="col">{since}</th>
            <th scope="col">{name}</th>
            <th scope="col">{user}</th>
            <th scope="col" className="num">
              {asked}
            </th>
            <th scope="col" className="num">
              {voted}
            </th>
            <th scope="col" className="num">
              {liked}
            </th>
          </tr>
        </thead>
        <tbody>
          {connections.length === 0 ? (
            <tr>
              <td colSpan={6} className="connections__empty">
                <FormattedMessage id="social.connections.empty" />
              </td>
            </tr>
          ) : (
            connections.map((connection) => (
              <tr key={connection.id}>
                <td data-label={since} className="connections__since">
                  <time dateTime={connection.time}>{format.day(connection.time)}</time>
                </td>
                <td data-label={name} className="connections__name">
                  {connection.name}
                </td>
                <td data-label={user}>
                  <Link to={paths.user.getHref(connection.id)} className="mono">
                    {displayId('UID', connection.id)}
                  </Link>
                </td>
                <CountCell label={asked} count={connection.question} to={paths.user.getHref(connection.id)} />
                <CountCell label={voted} count={connection.answer} to={paths.userAnswered.getHref(connection.id)} />
                <CountCell label={liked} count={connection.like} to={paths.userLikes.getHref(connection.id)} />
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
