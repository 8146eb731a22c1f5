import type { Comparison, Question, Result } from '@pollscope/contract';
import { TOO_FEW_MESSAGE, QuestionResult } from '../../../components/results/question-result';
import { Banner } from '../../../components/ui/banner';
import { formatAverage, mcAnswers, mcChoices, votesLabel } from '../../../lib/question-shape';
import { ComparisonBars, type ComparisonRow } from './comparison-bars';
import './insights.css';

interface FilteredResultProps {
  question: Question;
  filtered: Result;
  overall: Result;
  comparison?: Comparison | null;
  filteredLabel: string;
  /** The standard deviation of the privacy noise in the filtered count of voters; 0 when it is exact. */
  noise: number;
}

/** What the noise is, and what it is for, under a noisy result. */
function NoiseNote({ noise }: { noise: number }) {
  return (
    <p className="noise-note muted">
      Groups narrower than everyone are counted with a little random noise (about ±
      {Math.round(noise).toLocaleString('en')} voters), so that nobody’s answer can be worked out from them, however the
      groups are chosen.
    </p>
  );
}

/** Without the server's comparison, the two results side by side are compared choice by choice. */
function rowsFromResults(question: Question, filtered: Result, overall: Result): ComparisonRow[] {
  const percentIn = (result: Result, key: number) =>
    mcAnswers(result).find((answer) => answer.key === key)?.percent ?? 0;
  return mcChoices(question).map((choice) => ({
    key: choice.key,
    label: choice.value,
    percent: percentIn(filtered, choice.key),
    overall_percent: percentIn(overall, choice.key),
  }));
}

/** A filtered result beside everyone's: paired bars for a choice question, two distributions otherwise. */
export function FilteredResult({
  question,
  filtered,
  overall,
  comparison = null,
  filteredLabel,
  noise,
}: FilteredResultProps) {
  if (filtered.suppressed) return <Banner tone="info">{TOO_FEW_MESSAGE}</Banner>;
  const marginNote =
    noise > 0
      ? '± is the 95% margin of error of each filtered percentage, counting both sampling and the privacy noise.'
      : '± is the 95% margin of error of each filtered percentage.';
  const myChoice = question.answer?.choice ?? null;

  if (question.type === 'MC') {
    const rows = comparison?.rows.length
      ? comparison.rows.map((row) => ({ ...row, mine: row.key === myChoice }))
      : rowsFromResults(question, filtered, overall).map((row) => ({ ...row, mine: row.key === myChoice }));
    return (
      <div className="stack">
        <p className="muted">
          {noise > 0 ? 'About ' : ''}
          {votesLabel(filtered.count)} match
        </p>
        <ComparisonBars rows={rows} filteredLabel={filteredLabel} />
        {comparison && <p className="comparison__note muted">{marginNote}</p>}
        {noise > 0 && <NoiseNote noise={noise} />}
      </div>
    );
  }

  const average = comparison?.average;
  return (
    <div className="stack">
      {average && (
        <p className="average-comparison">
          <strong>
            {formatAverage(average.value)} ± {formatAverage(average.margin)}
          </strong>{' '}
          <span className="muted">average vs {formatAverage(average.overall)} everyone</span>
          {average.significant && <span className="significance">Significantly different from everyone</span>}
        </p>
      )}
      <div className="side-by-side">
        <section aria-label={filteredLabel}>
          <h3 className="side-by-side__title">
            {filteredLabel}{' '}
            <span className="muted">
              ({noise > 0 ? 'about ' : ''}
              {votesLabel(filtered.count)})
            </span>
          </h3>
          <QuestionResult question={question} result={filtered} myChoice={myChoice} />
        </section>
        <section aria-label="Everyone">
          <h3 className="side-by-side__title">
            Everyone <span className="muted">({votesLabel(overall.count)})</span>
          </h3>
          <QuestionResult question={question} result={overall} myChoice={myChoice} />
        </section>
      </div>
      {noise > 0 && <NoiseNote noise={noise} />}
    </div>
  );
}
