import { RATING_SCALE, type Question, type ReleasedGroup } from '@pollscope/contract';
import { formatAverage, rangeOf, type Range } from '../../../lib/question-shape';
import './insights.css';

export const TOO_FEW_TO_SHOW = 'Too few to show';
/** Said under a set of these charts: what the two kinds of ± mean. */
export const RELEASE_NOTE =
  'Voter counts carry privacy noise (± one standard deviation); each bar’s line spans its 95% margin of error.';

const clampPercent = (value: number) => Math.max(0, Math.min(100, value));
const scaleNumber = new Intl.NumberFormat('en', { notation: 'compact', maximumFractionDigits: 1 });

/** A released count with the standard deviation of its noise: "about 512 voters ± 36"; an exact one plainly. */
export function votersLabel(count: number, countSd: number): string {
  const voters = `${count.toLocaleString('en')} ${count === 1 ? 'voter' : 'voters'}`;
  return countSd > 0 ? `about ${voters} ± ${Math.round(countSd).toLocaleString('en')}` : voters;
}

/** What one answer's bar says to a screen reader: "Yes: 62% ± 5 points". */
export function rowDescription(row: ReleasedGroup['rows'][number]): string {
  return `${row.label}: ${Math.round(row.percent)}% ± ${Math.round(row.margin)} points`;
}

/** The scale an average lies on: a rating's 1 to 10, a number question's own range. */
function scaleOf(question: Pick<Question, 'type' | 'choices'>): Range {
  return question.type === 'RS' ? RATING_SCALE : rangeOf(question);
}

/** A span of a 0–100 track as CSS: its start and width, each clamped to the track. */
function spanStyle(from: number, to: number) {
  const left = clampPercent(from);
  return { left: `${left}%`, width: `${clampPercent(to) - left}%` };
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
  return (
    <ul className="released-bars">
      {rows.map((row) => (
        <li key={row.key}>
          <div className="released-bar" role="img" aria-label={rowDescription(row)}>
            <span className="released-bar__label">{row.label}</span>
            <span className="released-bar__track">
              <span className="released-bar__fill" style={{ width: `${clampPercent(row.percent)}%` }} />
              <Whisker from={row.percent - row.margin} to={row.percent + row.margin} />
            </span>
            <span className="released-bar__value">
              {Math.round(row.percent)}% ±{Math.round(row.margin)}
            </span>
          </div>
        </li>
      ))}
    </ul>
  );
}

/**
 * A rating's or number's average, in figures over a dot on the question's whole scale with a whisker over its 95%
 * margin.
 */
function AverageDot({ average, scale }: { average: NonNullable<ReleasedGroup['average']>; scale: Range }) {
  const span = scale.max - scale.min || 1;
  const at = (value: number) => ((value - scale.min) / span) * 100;
  const description = `Average ${formatAverage(average.value)} ± ${formatAverage(average.margin)} on a scale of ${scale.min} to ${scale.max}`;
  return (
    <div className="released-bar released-bar--average" role="img" aria-label={description}>
      <span className="released-bar__value">
        {formatAverage(average.value)} ±{formatAverage(average.margin)}{' '}
        <span className="released-bar__unit">average</span>
      </span>
      <span className="released-bar__end">{scaleNumber.format(scale.min)}</span>
      <span className="released-bar__track">
        <Whisker from={at(average.value - average.margin)} to={at(average.value + average.margin)} />
        <span className="released-bar__dot" style={{ left: `${clampPercent(at(average.value))}%` }} />
      </span>
      <span className="released-bar__end">{scaleNumber.format(scale.max)}</span>
    </div>
  );
}

interface ReleasedGroupChartProps {
  question: Pick<Question, 'type' | 'choices'>;
  group: ReleasedGroup;
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
export function ReleasedGroupChart({ question, group, onSelect, current = false }: ReleasedGroupChartProps) {
  const selectable = onSelect !== undefined && group.shown;
  const classes = ['released-group', selectable && 'released-group--selectable', current && 'released-group--current']
    .filter(Boolean)
    .join(' ');
  const heading = (
    <>
      <span className="released-group__label">{group.label}</span>{' '}
      {group.shown && <span className="released-group__count">{votersLabel(group.count, group.count_sd)}</span>}
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
        <p className="released-group__too-few">{TOO_FEW_TO_SHOW}</p>
      ) : question.type !== 'MC' && group.average ? (
        <AverageDot average={group.average} scale={scaleOf(question)} />
      ) : (
        <AnswerBars rows={group.rows} />
      )}
    </div>
  );
}
