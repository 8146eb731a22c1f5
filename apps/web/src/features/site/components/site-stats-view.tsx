import type { SiteStats } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { useFormat } from '../../../i18n/format';
import './site.css';

interface NumbersTableProps {
  caption: string;
  /** A caption for screen readers only, where a visible heading already says what the table is. */
  captionHidden?: boolean;
  headings: [label: string, value: string];
  rows: { key: string; label: string; value: number }[];
}

/** A two-column table of labelled counts. */
function NumbersTable({ caption, captionHidden = false, headings, rows }: NumbersTableProps) {
  const format = useFormat();
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
          <tr key={row.key}>
            <th scope="row">{row.label}</th>
            <td className="num">{format.count(row.value)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The community's totals as big numbers, the server's chart, and the totals again as a table. */
export function SiteStatsView({ stats }: { stats: SiteStats }) {
  const intl = useIntl();
  const format = useFormat();
  const totals = [
    { key: 'people', label: intl.formatMessage({ id: 'site.totals.people' }), value: stats.users },
    { key: 'questions', label: intl.formatMessage({ id: 'site.totals.questions' }), value: stats.questions },
    { key: 'answers', label: intl.formatMessage({ id: 'site.totals.answers' }), value: stats.answers },
    { key: 'likes', label: intl.formatMessage({ id: 'site.totals.likes' }), value: stats.likes },
  ];
  return (
    <div className="stack">
      <ul className="site-totals" aria-hidden="true">
        {totals.map((total) => (
          <li key={total.key} className="card site-total">
            <span className="site-total__value">{format.count(total.value)}</span>
            <span className="site-total__label">{total.label}</span>
          </li>
        ))}
      </ul>
      <figure className="card site-chart">
        {/* The chart's title, outside the frame that a phone scrolls sideways, where it stays in view. */}
        <figcaption>
          <FormattedMessage id="site.chart.caption" />
        </figcaption>
        {/* A phone shows the chart at a readable size and scrolls it sideways. */}
        <div
          className="site-chart__frame"
          tabIndex={0}
          role="group"
          aria-label={intl.formatMessage({ id: 'site.chart.frameLabel' })}
        >
          <img src={stats.image} alt={intl.formatMessage({ id: 'site.chart.description' })} width={720} height={280} />
        </div>
        <details className="site-chart__numbers">
          <summary>
            <FormattedMessage id="site.chart.numbers" />
          </summary>
          <NumbersTable
            caption={intl.formatMessage({ id: 'site.perDay.caption' })}
            captionHidden
            headings={[
              intl.formatMessage({ id: 'site.perDay.day' }),
              intl.formatMessage({ id: 'site.perDay.answers' }),
            ]}
            rows={stats.answers_per_day.map((day) => ({
              key: day.day,
              label: format.day(day.day),
              value: day.answers,
            }))}
          />
        </details>
      </figure>
      <div className="card">
        <NumbersTable
          caption={intl.formatMessage({ id: 'site.totals.caption' })}
          headings={[
            intl.formatMessage({ id: 'site.totals.measure' }),
            intl.formatMessage({ id: 'site.totals.count' }),
          ]}
          rows={totals}
        />
      </div>
    </div>
  );
}
