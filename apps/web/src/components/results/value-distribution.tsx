import type { ValueAnswer } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { useFormat } from '../../i18n/format';
import type { Range } from '../../lib/question-shape';
import './results.css';

/** A bar: the votes for one value (`from` and `to` the same) or for a range of values. */
interface Bin {
  from: number;
  to: number;
  count: number;
  mine: boolean;
}

/** Most bars a chart shows before values are grouped into ranges. */
const MAX_BARS = 12;
const RANGE_BARS = 10;

/**
 * A bar per possible value on a short whole-number scale, per given value otherwise, grouped into
 * ranges when there are many. Answers the server already counts by range (`upto`) get a bar each.
 */
export function distributionBins(range: Range, answers: ValueAnswer[], myChoice: number | null): Bin[] {
  if (answers.length > 0 && answers.every((answer) => answer.upto !== undefined)) {
    return answers.map((answer, index) => {
      const last = index === answers.length - 1;
      const within =
        myChoice !== null &&
        myChoice >= answer.choice &&
        (myChoice < answer.upto! || (last && myChoice <= answer.upto!));
      return { from: answer.choice, to: answer.upto!, count: answer.count, mine: within };
    });
  }
  const span = range.max - range.min;
  const wholeNumbers =
    Number.isInteger(range.min) &&
    Number.isInteger(range.max) &&
    answers.every((answer) => Number.isInteger(answer.choice));
  if (wholeNumbers && span >= 0 && span < MAX_BARS) {
    return Array.from({ length: span + 1 }, (_, index) => {
      const value = range.min + index;
      return {
        from: value,
        to: value,
        count: answers.find((answer) => answer.choice === value)?.count ?? 0,
        mine: value === myChoice,
      };
    });
  }
  const sorted = [...answers].sort((a, b) => a.choice - b.choice);
  if (sorted.length <= MAX_BARS) {
    return sorted.map((answer) => ({
      from: answer.choice,
      to: answer.choice,
      count: answer.count,
      mine: answer.choice === myChoice,
    }));
  }
  const low = sorted[0].choice;
  const high = sorted[sorted.length - 1].choice;
  // Whole-number answers get whole-number ranges ("1–4"), others equal slices of the span.
  const width = wholeNumbers ? Math.ceil((high - low + 1) / RANGE_BARS) : (high - low) / RANGE_BARS;
  const binCount = wholeNumbers ? Math.ceil((high - low + 1) / width) : RANGE_BARS;
  const bins = Array.from({ length: binCount }, (_, index) => {
    const from = low + index * width;
    const to = wholeNumbers ? from + width - 1 : index === binCount - 1 ? high : from + width;
    return { from, to, count: 0, mine: false };
  });
  for (const answer of sorted) {
    const index = Math.min(binCount - 1, Math.floor((answer.choice - low) / width));
    bins[index].count += answer.count;
    if (answer.choice === myChoice) bins[index].mine = true;
  }
  return bins;
}

interface ValueDistributionProps {
  range: Range;
  answers: ValueAnswer[];
  average: number | null;
  myChoice?: number | null;
  caption: string;
}

/** Votes per value as columns, the average above them, and the same counts as a table for screen readers. */
export function ValueDistribution({ range, answers, average, myChoice = null, caption }: ValueDistributionProps) {
  const intl = useIntl();
  const format = useFormat();
  /** A value as given, to two decimals at most: "7", "3.25". */
  const value = (number: number) => intl.formatNumber(number, { maximumFractionDigits: 2 });
  const labelOf = (bin: Bin) =>
    bin.from === bin.to
      ? value(bin.from)
      : intl.formatMessage({ id: 'results.range' }, { from: value(bin.from), to: value(bin.to) });
  const bins = distributionBins(range, answers, myChoice).map((bin) => ({ ...bin, label: labelOf(bin) }));
  const tallest = Math.max(1, ...bins.map((bin) => bin.count));
  return (
    <figure className="distribution">
      <div className="distribution__summary">
        {average !== null && (
          <p className="distribution__average">
            <FormattedMessage
              id="results.average"
              values={{
                average: format.average(average),
                value: (chunks) => <span className="distribution__average-value">{chunks}</span>,
                label: (chunks) => <span className="muted">{chunks}</span>,
              }}
            />
          </p>
        )}
        {myChoice !== null && (
          <p className="distribution__mine">
            <FormattedMessage id="results.yourValue" values={{ value: value(myChoice) }} />
          </p>
        )}
      </div>
      <div className="distribution__chart" aria-hidden="true">
        {bins.map((bin) => (
          <div key={bin.label} className={bin.mine ? 'distribution__col distribution__col--mine' : 'distribution__col'}>
            <span className="distribution__count">{bin.count > 0 ? format.count(bin.count) : ''}</span>
            <div className="distribution__bar-area">
              <div className="distribution__bar" style={{ height: `${(bin.count / tallest) * 100}%` }} />
            </div>
            <span className="distribution__label">{bin.label}</span>
          </div>
        ))}
      </div>
      {/* Tables ignore the clipping that hides other elements, so a wrapper hides this one. */}
      <div className="sr-only">
        <table>
          <caption>{caption}</caption>
          <thead>
            <tr>
              <th scope="col">
                <FormattedMessage id="results.answerColumn" />
              </th>
              <th scope="col">
                <FormattedMessage id="results.votesColumn" />
              </th>
            </tr>
          </thead>
          <tbody>
            {bins.map((bin) => (
              <tr key={bin.label}>
                <td>
                  {bin.label}
                  {bin.mine && (
                    <>
                      {' '}
                      <FormattedMessage id="results.yourAnswer" />
                    </>
                  )}
                </td>
                <td>{format.count(bin.count)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}
