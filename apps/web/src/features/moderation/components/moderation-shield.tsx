import { useIntl } from 'react-intl';
import { NavLink } from 'react-router';
import { ShieldIcon } from '../../../components/ui/icons';
import { paths } from '../../../config/paths';
import { useFormat } from '../../../i18n/format';
import { useOpenCount } from '../api/get-open-count';
import { moderates, useRole } from '../api/get-role';
import './moderation.css';

/** A larger count shows as "99+", which keeps the badge within the shield's width. */
const MAX_SHOWN = 99;

/** The header's link to the moderation queue, with the number of open reports: for moderators and admins only. */
export function ModerationShield() {
  const intl = useIntl();
  const { count } = useFormat();
  const moderator = moderates(useRole());
  const open = useOpenCount(moderator) ?? 0;
  if (!moderator) return null;
  const label = intl.formatMessage({ id: 'moderation.shield.label' }, { count: open });
  return (
    <NavLink to={paths.moderation.getHref()} className="icon-link moderation-shield" aria-label={label} title={label}>
      <ShieldIcon />
      {open > 0 && (
        <span className="moderation-shield__count" aria-hidden="true">
          {open > MAX_SHOWN ? intl.formatMessage({ id: 'moderation.shield.more' }, { count: MAX_SHOWN }) : count(open)}
        </span>
      )}
    </NavLink>
  );
}
