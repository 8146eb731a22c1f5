import { CheckIcon } from '../../../components/ui/icons';
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
  return (
    <div className="comparison">
      <p className="comparison__legend" aria-hidden="true">
        <span className="comparison__swatch comparison__swatch--filtered" /> {filteredLabel}
        <span className="comparison__swatch comparison__swatch--overall" /> Everyone
      </p>
      <ul className="comparison__rows">
        {rows.map((row) => (
          <li key={row.key} className="comparison__row">
            <div className="comparison__text">
              <span className="comparison__label">
                {row.mine && <CheckIcon className="result-bar__check" />}
                {row.label}
                {row.mine && <span className="sr-only"> (your answer)</span>}
              </span>
              <span className="comparison__numbers">
                <strong>
                  {row.percent}%
                  {row.margin !== undefined && <span className="comparison__margin"> ±{Math.round(row.margin)}</span>}
                </strong>
                <span className="muted"> vs {row.overall_percent}% everyone</span>
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
                    style={{
                      left: `${clamp(row.percent - row.margin)}%`,
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
            {row.significant && <span className="significance">Significantly different from everyone</span>}
          </li>
        ))}
      </ul>
    </div>
  );
}
