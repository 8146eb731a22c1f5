import { displayId, type Connection } from '@pollscope/contract';
import { Link } from 'react-router';
import { paths } from '../../../config/paths';
import { formatDate } from '../../../lib/question-shape';
import './social.css';

export const NO_CONNECTIONS_MESSAGE = 'No Connections!';

/** A count that leads to the list it counts, when there is anything in it. */
function CountCell({ label, count, to }: { label: string; count: number; to: string }) {
  return (
    <td className="num" data-label={label}>
      {count > 0 ? <Link to={to}>{count}</Link> : count}
    </td>
  );
}

export function ConnectionsTable({ connections }: { connections: Connection[] }) {
  return (
    <div className="card connections">
      <table className="table connections__table">
        <caption className="sr-only">People you are connected to</caption>
        <thead>
          <tr>
            <th scope="col">Since</th>
            <th scope="col">Name</th>
            <th scope="col">User</th>
            <th scope="col" className="num">
              Asked
            </th>
            <th scope="col" className="num">
              Voted
            </th>
            <th scope="col" className="num">
              Liked
            </th>
          </tr>
        </thead>
        <tbody>
          {connections.length === 0 ? (
            <tr>
              <td colSpan={6} className="connections__empty">
                {NO_CONNECTIONS_MESSAGE}
              </td>
            </tr>
          ) : (
            connections.map((connection) => (
              <tr key={connection.id}>
                <td data-label="Since">
                  <time dateTime={connection.time}>{formatDate(connection.time)}</time>
                </td>
                <td data-label="Name" className="connections__name">
                  {connection.name}
                </td>
                <td data-label="User">
                  <Link to={paths.user.getHref(connection.id)} className="mono">
                    {displayId('UID', connection.id)}
                  </Link>
                </td>
                <CountCell label="Asked" count={connection.question} to={paths.user.getHref(connection.id)} />
                <CountCell label="Voted" count={connection.answer} to={paths.userAnswered.getHref(connection.id)} />
                <CountCell label="Liked" count={connection.like} to={paths.userLikes.getHref(connection.id)} />
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
