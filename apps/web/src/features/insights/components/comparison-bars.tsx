import { FormattedMessage } from 'react-intl';
import { CheckIcon } from '../../../components/ui/icons';
import { useFormat } from '../../../i18n/format';
import './insights.css';

export interface ComparisonRow {
  key: number;
  label: string;
  percent: number;
  overall_percent: number;
  /** 95% margin of error of the filtered percentage, in points. */
  margin?: number;
  significant?: boolean;
  mine?: boolean;
}

interface ComparisonBarsProps {
  rows: ComparisonRow[];
  filteredLabel: string;
}

const clamp = (value: number) => Math.max(0, Math.min(100, value));

/** Each choice's share among the filtered voters beside its share among everyone. */
export function ComparisonBars({ rows, filteredLabel }: ComparisonBarsProps) {
  const format = useFormat();
  return (
    <div className="comparison">
      <p className="comparison__legend" aria-hidden="true">
        <span className="comparison__swatch comparison__swatch--filtered" /> {filteredLabel}
        <span className="comparison__swatch comparison__swatch--overall" /> <FormattedMessage id="insights.everyone" />
      </p>
      <ul className="comparison__rows">
        {rows.map((row) => (
          <li key={row.key} className="comparison__row">
            <div className="comparison__text">
              <span className="comparison__label">
                {row.mine && <CheckIcon className="result-bar__check" />}
                {row.label}
                {row.mine && (
                  <span className="sr-only">
                    {' '}
                    <FormattedMessage id="insights.comparison.yourAnswer" />
                  </span>
                )}
              </span>
              <span className="comparison__numbers">
                <FormattedMessage
                  id="insights.comparison.numbers"
                  values={{
                    percent: format.percent(row.percent),
                    hasMargin: row.margin === undefined ? 'no' : 'yes',
                    margin: format.count(Math.round(row.margin ?? 0)),
                    overall: format.percent(row.overall_percent),
                    strong: (chunks) => <strong>{chunks}</strong>,
                    margined: (chunks) => <span className="comparison__margin">{chunks}</span>,
                    muted: (chunks) => <span className="muted">{chunks}</span>,
                  }}
                />
              </span>
            </div>
            <div className="comparison__bars" aria-hidden="true">
              <div className="comparison__track">
                <div
                  className="comparison__fill comparison__fill--filtered"
                  style={{ width: `${clamp(row.percent)}%` }}
                />
                {row.margin !== undefined && row.margin > 0 && (
                  <div
                    className="comparison__whisker"
                    // From the inline start, as the bars grow: right to left in a language written that way.
                    style={{
                      insetInlineStart: `${clamp(row.percent - row.margin)}%`,
                      width: `${clamp(row.percent + row.margin) - clamp(row.percent - row.margin)}%`,
                    }}
                  />
                )}
              </div>
              <div className="comparison__track comparison__track--thin">
                <div
                  className="comparison__fill comparison__fill--overall"
                  style={{ width: `${clamp(row.overall_percent)}%` }}
                />
              </div>
            </div>
            {row.significant && (
              <span className="significance">
                <FormattedMessage id="insights.significant" />
              </span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
