import { RATING_SCALE, type Question, type ReleasedGroup } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { useFormat } from '../../../i18n/format';
import { rangeOf, type Range } from '../../../lib/question-shape';
import './insights.css';

const clampPercent = (value: number) => Math.max(0, Math.min(100, value));

/** What is said under a set of these charts: what the two kinds of ± mean. */
export function ReleaseNote() {
  const { percent } = useFormat();
  return (
    <p className="release-note muted">
      <FormattedMessage id="insights.chart.releaseNote" values={{ level: percent(95) }} />
    </p>
  );
}

/** A released count with the standard deviation of its noise: "about 512 voters ± 36"; an exact one plainly. */
function VotersLabel({ count, countSd }: { count: number; countSd: number }) {
  const format = useFormat();
  return countSd > 0 ? (
    <FormattedMessage id="insights.chart.votersAbout" values={{ count, sd: format.count(Math.round(countSd)) }} />
  ) : (
    <FormattedMessage id="insights.chart.voters" values={{ count }} />
  );
}

/** The scale an average lies on: a rating's 1 to 10, a number question's own range. */
function scaleOf(question: Pick<Question, 'type' | 'choices'>): Range {
  return question.type === 'RS' ? RATING_SCALE : rangeOf(question);
}

/**
 * A span of a 0–100 track as CSS: its start and width, each clamped to the track. Tracks are laid out from the inline
 * start, so that in a language written right to left the whole chart mirrors: bars grow from the right, as the labels
 * and values beside them read, and each margin stays around its bar's end.
 */
function spanStyle(from: number, to: number) {
  const start = clampPercent(from);
  return { insetInlineStart: `${start}%`, width: `${clampPercent(to) - start}%` };
}

/** A margin's span on a 0–100 track; an end past the track is left open. */
function Whisker({ from, to }: { from: number; to: number }) {
  if (to <= from) return null;
  const classes = [
    'released-bar__whisker',
    from < 0 && 'released-bar__whisker--open-start',
    to > 100 && 'released-bar__whisker--open-end',
  ]
    .filter(Boolean)
    .join(' ');
  return <span className={classes} style={spanStyle(from, to)} />;
}

/** One bar per answer: the group's percentage, and a whisker over its 95% margin. */
function AnswerBars({ rows }: { rows: ReleasedGroup['rows'] }) {
  const intl = useIntl();
  const format = useFormat();
  return (
    <ul className="released-bars">
      {rows.map((row) => {
        const margin = Math.round(row.margin);
        return (
          <li key={row.key}>
            <div
              className="released-bar"
              role="img"
              // What the bar says to a screen reader: "Yes: 62% ± 5 points".
              aria-label={intl.formatMessage(
                { id: 'insights.chart.row' },
                { label: row.label, percent: format.percent(row.percent), margin },
              )}
            >
              <span className="released-bar__label">{row.label}</span>
              <span className="released-bar__track">
                <span className="released-bar__fill" style={{ width: `${clampPercent(row.percent)}%` }} />
                <Whisker from={row.percent - row.margin} to={row.percent + row.margin} />
              </span>
              <span className="released-bar__value">
                <FormattedMessage
                  id="insights.chart.value"
                  values={{ percent: format.percent(row.percent), margin: format.count(margin) }}
                />
              </span>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

/**
 * A rating's or number's average, in figures over a dot on the question's whole scale with a whisker over its 95%
 * margin.
 */
function AverageDot({ average, scale }: { average: NonNullable<ReleasedGroup['average']>; scale: Range }) {
  const intl = useIntl();
  const format = useFormat();
  const span = scale.max - scale.min || 1;
  const at = (value: number) => ((value - scale.min) / span) * 100;
  /** A scale's end, short: "10", "200", "1.5K". */
  const end = (value: number) => intl.formatNumber(value, { notation: 'compact', maximumFractionDigits: 1 });
  const description = intl.formatMessage(
    { id: 'insights.chart.averageDescription' },
    {
      value: format.average(average.value),
      margin: format.average(average.margin),
      min: intl.formatNumber(scale.min),
      max: intl.formatNumber(scale.max),
    },
  );
  return (
    <div className="released-bar released-bar--average" role="img" aria-label={description}>
      <span className="released-bar__value">
        <FormattedMessage
          id="insights.chart.average"
          values={{
            value: format.average(average.value),
            margin: format.average(average.margin),
            unit: (chunks) => <span className="released-bar__unit">{chunks}</span>,
          }}
        />
      </span>
      <span className="released-bar__end">{end(scale.min)}</span>
      <span className="released-bar__track">
        <Whisker from={at(average.value - average.margin)} to={at(average.value + average.margin)} />
        <span className="released-bar__dot" style={{ insetInlineStart: `${clampPercent(at(average.value))}%` }} />
      </span>
      <span className="released-bar__end">{end(scale.max)}</span>
    </div>
  );
}

interface ReleasedGroupChartProps {
  question: Pick<Question, 'type' | 'choices'>;
  group: ReleasedGroup;
  /** The group's name as the reader reads it: "Female", "18–24", "Frankreich"; the group's own label when left out. */
  label?: string;
  /** Makes a shown group a button, which shows that group's result in full. */
  onSelect?: () => void;
  /** The group whose result is shown in full. */
  current?: boolean;
}

/**
 * One group's result as the private release gives it: its label and noisy count of voters, then
 * a bar per answer for a multiple-choice question or the average on the question's scale for a
 * rating or a number, each with its 95% margin; a group too small to say anything says so.
 */
export function ReleasedGroupChart({
  question,
  group,
  label = group.label,
  onSelect,
  current = false,
}: ReleasedGroupChartProps) {
  const selectable = onSelect !== undefined && group.shown;
  const classes = ['released-group', selectable && 'released-group--selectable', current && 'released-group--current']
    .filter(Boolean)
    .join(' ');
  const heading = (
    <>
      <span className="released-group__label">{label}</span>{' '}
      {group.shown && (
        <span className="released-group__count">
          <VotersLabel count={group.count} countSd={group.count_sd} />
        </span>
      )}
    </>
  );
  return (
    <div className={classes}>
      {selectable ? (
        <button
          type="button"
          className="released-group__head released-group__select"
          aria-current={current || undefined}
          onClick={onSelect}
        >
          {heading}
        </button>
      ) : (
        <div className="released-group__head">{heading}</div>
      )}
      {!group.shown ? (
        <p className="released-group__too-few">
          <FormattedMessage id="insights.chart.tooFew" />
        </p>
      ) : question.type !== 'MC' && group.average ? (
        <AverageDot average={group.average} scale={scaleOf(question)} />
      ) : (
        <AnswerBars rows={group.rows} />
      )}
    </div>
  );
}
