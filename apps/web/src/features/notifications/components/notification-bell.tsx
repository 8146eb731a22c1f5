import { NavLink } from 'react-router';
import { BellIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import { useUnreadCount } from '../api/get-unread-count';
import './notifications.css';

/** A larger count shows as "99+", which keeps the badge within the bell's width. */
const MAX_SHOWN = 99;

/** The header's link to the notifications, with the unread count as it changes. */
export function NotificationBell() {
  const unread = useUnreadCount() ?? 0;
  const label = unread > 0 ? `Notifications, ${unread} unread` : 'Notifications';
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
          {unread > MAX_SHOWN ? `${MAX_SHOWN}+` : unread}
        </span>
      )}
    </NavLink>
  );
}
