import { Link } from 'react-router';
import { Banner } from '../../../components/ui/banner';
import { paths } from '../../../config/paths';
import { useMyStats } from '../api/get-my-stats';
import './social.css';

/** The viewer's own counts, each leading to its list. */
export function PersonalStats() {
  const { data: stats, error } = useMyStats();
  if (error) return <Banner tone="error">{(error as Error).message}</Banner>;
  const items = [
    { label: 'Asked Qs', value: stats?.question, to: paths.wall.getHref() },
    { label: 'Answered', value: stats?.answer, to: paths.answered.getHref() },
    { label: 'Liked', value: stats?.like, to: paths.likes.getHref() },
  ];
  return (
    <section className="personal-stats card" aria-labelledby="personal-stats-title">
      <h2 id="personal-stats-title" className="eyebrow">
        PERSONAL STATS
      </h2>
      <ul className="personal-stats__list">
        {items.map((item) => (
          <li key={item.to}>
            <Link to={item.to} className="personal-stats__item">
              <span className="personal-stats__value">{item.value ?? '–'}</span>
              <span className="personal-stats__label">{item.label}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
