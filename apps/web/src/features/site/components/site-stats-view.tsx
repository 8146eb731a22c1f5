import type { SiteStats } from '@pollscope/contract';
import './site.css';

const CHART_DESCRIPTION = 'Chart of answers per day over the last 30 days';

interface NumbersTableProps {
  caption: string;
  /** A caption for screen readers only, where a visible heading already says what the table is. */
  captionHidden?: boolean;
  headings: [label: string, value: string];
  rows: { label: string; value: number }[];
}

/** A two-column table of labelled counts. */
function NumbersTable({ caption, captionHidden = false, headings, rows }: NumbersTableProps) {
  return (
    <table className="table">
      <caption className={captionHidden ? 'sr-only' : undefined}>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{headings[0]}</th>
          <th scope="col" className="num">
            {headings[1]}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.label}>
            <th scope="row">{row.label}</th>
            <td className="num">{row.value.toLocaleString('en')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

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
        {/* The chart's title, outside the frame that a phone scrolls sideways, where it stays in view. */}
        <figcaption>Answers per day over the last 30 days</figcaption>
        {/* A phone shows the chart at a readable size and scrolls it sideways. */}
        <div
          className="site-chart__frame"
          tabIndex={0}
          role="group"
          aria-label="Chart, scrolls sideways on small screens"
        >
          <img src={stats.image} alt={CHART_DESCRIPTION} width={720} height={280} />
        </div>
        <details className="site-chart__numbers">
          <summary>The chart’s numbers</summary>
          <NumbersTable
            caption="Answers per day"
            captionHidden
            headings={['Day', 'Answers']}
            rows={stats.answers_per_day.map((day) => ({ label: day.day, value: day.answers }))}
          />
        </details>
      </figure>
      <div className="card">
        <NumbersTable caption="Totals" headings={['Measure', 'Count']} rows={totals} />
      </div>
    </div>
  );
}
