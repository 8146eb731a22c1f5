import { useIntl } from 'react-intl';
import { NavLink } from 'react-router';
import { BellIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import { useFormat } from '../../../i18n/format';
import { useUnreadCount } from '../api/get-unread-count';
import './notifications.css';

/** A larger count shows as "99+", which keeps the badge within the bell's width. */
const MAX_SHOWN = 99;

/** The header's link to the notifications, with the unread count as it changes. */
export function NotificationBell() {
  const intl = useIntl();
  const format = useFormat();
  const unread = useUnreadCount() ?? 0;
  const label = intl.formatMessage({ id: 'notifications.bell.label' }, { count: unread });
  return (
    <NavLink
      to={paths.notifications.getHref()}
      className="icon-link notification-bell"
      aria-label={label}
      title={label}
    >
      <BellIcon />
      {unread > 0 && (
        <span className="notification-bell__count" aria-hidden="true">
          {unread > MAX_SHOWN
            ? intl.formatMessage({ id: 'notifications.bell.more' }, { count: MAX_SHOWN })
            : format.count(unread)}
        </span>
      )}
    </NavLink>
  );
}
