import type { SiteStats } from '@pollscope/contract';
import './site.css';

const CHART_DESCRIPTION = 'Chart of answers per day over the last 30 days';

/** The community's totals as big numbers, the server's chart, and the totals again as a table. */
export function SiteStatsView({ stats }: { stats: SiteStats }) {
  const totals = [
    { label: 'People', value: stats.users },
    { label: 'Questions', value: stats.questions },
    { label: 'Answers', value: stats.answers },
    { label: 'Likes', value: stats.likes },
  ];
  return (
    <div className="stack">
      <ul className="site-totals" aria-hidden="true">
        {totals.map((total) => (
          <li key={total.label} className="card site-total">
            <span className="site-total__value">{total.value.toLocaleString('en')}</span>
            <span className="site-total__label">{total.label}</span>
          </li>
        ))}
      </ul>
      <figure className="card site-chart">
        {/* A phone shows the chart at a readable size and scrolls it sideways. */}
        <div className="site-chart__frame" tabIndex={0} role="group" aria-label="Chart, scrolls sideways on small screens">
          <img src={stats.image} alt={CHART_DESCRIPTION} width={720} height={300} />
        </div>
        <figcaption className="muted">Answers per day over the last 30 days</figcaption>
        <details className="site-chart__numbers">
          <summary>The chart’s numbers</summary>
          <table className="table">
            <caption className="sr-only">Answers per day</caption>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col" className="num">
                  Answers
                </th>
              </tr>
            </thead>
            <tbody>
              {stats.answers_per_day.map((day) => (
                <tr key={day.day}>
                  <th scope="row">{day.day}</th>
                  <td className="num">{day.answers.toLocaleString('en')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      </figure>
      <div className="card">
        <table className="table">
          <caption>Totals</caption>
          <thead>
            <tr>
              <th scope="col">Measure</th>
              <th scope="col" className="num">
                Count
              </th>
            </tr>
          </thead>
          <tbody>
            {totals.map((total) => (
              <tr key={total.label}>
                <th scope="row">{total.label}</th>
                <td className="num">{total.value.toLocaleString('en')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
