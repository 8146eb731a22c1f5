import { FormattedMessage, useIntl } from 'react-intl';
import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { paths } from '../../../config/paths';
import { useErrorText } from '../../../hooks/use-error-text';
import { useFormat } from '../../../i18n/format';
import { useMyStats } from '../api/get-my-stats';
import './social.css';

/** The viewer's own counts, each leading to its list. */
export function PersonalStats() {
  const intl = useIntl();
  const format = useFormat();
  const errorText = useErrorText();
  const { data: stats, error } = useMyStats();
  if (error) return <Banner tone="error">{errorText(error)}</Banner>;
  const items = [
    { label: intl.formatMessage({ id: 'social.stats.asked' }), value: stats?.question, to: paths.wall.getHref() },
    { label: intl.formatMessage({ id: 'social.stats.answered' }), value: stats?.answer, to: paths.answered.getHref() },
    { label: intl.formatMessage({ id: 'social.stats.liked' }), value: stats?.like, to: paths.likes.getHref() },
  ];
  return (
    <section className="personal-stats card" aria-labelledby="personal-stats-title">
      <h2 id="personal-stats-title" className="eyebrow">
        <FormattedMessage id="social.stats.title" />
      </h2>
      <ul className="personal-stats__list">
        {items.map((item) => (
          <li key={item.to}>
            <Link to={item.to} className="personal-stats__item">
              <span className="personal-stats__value">{item.value === undefined ? '–' : format.count(item.value)}</span>
              <span className="personal-stats__label">{item.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
