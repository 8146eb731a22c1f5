import { FormattedMessage, useIntl } from 'react-intl';
import './insights.css';

interface AgeRangeSliderProps {
  bounds: { min: number; max: number };
  low: number;
  high: number;
  onChange: (low: number, high: number) => void;
}

/** Two thumbs on one track; the lower one always stays at least a year below the upper one. */
export function AgeRangeSlider({ bounds, low, high, onChange }: AgeRangeSliderProps) {
  const intl = useIntl();
  const span = Math.max(1, bounds.max - bounds.min);
  const position = (value: number) => ((value - bounds.min) / span) * 100;
  return (
    <fieldset className="fieldset age-range">
      <legend className="fieldset__legend">
        <FormattedMessage
          id="insights.filters.age"
          values={{ low, high, values: (chunks) => <span className="age-range__values">{chunks}</span> }}
        />
      </legend>
      <div className="age-range__slider">
        <div className="age-range__track" aria-hidden="true">
          <div
            className="age-range__fill"
            // From the inline start, as the range inputs run: right to left in a language written that way.
            style={{ insetInlineStart: `${position(low)}%`, width: `${position(high) - position(low)}%` }}
          />
        </div>
        <input
          type="range"
          aria-label={intl.formatMessage({ id: 'insights.filters.minAge' })}
          min={bounds.min}
          max={bounds.max}
          step={1}
          value={low}
          onChange={(event) => onChange(Math.min(Number(event.target.value), high - 1), high)}
        />
        <input
          type="range"
          aria-label={intl.formatMessage({ id: 'insights.filters.maxAge' })}
          min={bounds.min}
          max={bounds.max}
          step={1}
          value={high}
          onChange={(event) => onChange(low, Math.max(Number(event.target.value), low + 1))}
        />
      </div>
    </fieldset>
  );
}
