import type { Comparison, Question, Result } from '@pollscope/contract';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { QuestionResult, TooFewResults } from '../../../components/results/question-result';
import { useFormat } from '../../../i18n/format';
import { mcAnswers, mcChoices } from '../../../lib/question-shape';
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
  /**
   * Whether the group is everyone, whose result is exact. Any other group's answers carry noise,
   * even when its number of voters is public and exact (an age band, a country).
   */
  exact: boolean;
}

/** What the noise is, and what it is for, under a noisy result. */
function NoiseNote({ noise }: { noise: number }) {
  return (
    <p className="noise-note muted">
      {noise > 0 ? (
        <FormattedMessage id="insights.filtered.noiseNote" values={{ noise: Math.round(noise) }} />
      ) : (
        <FormattedMessage id="insights.filtered.noiseNoteAnswers" />
      )}
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
  exact,
}: FilteredResultProps) {
  const intl = useIntl();
  const format = useFormat();
  if (filtered.suppressed) return <TooFewResults />;
  const noisy = exact ? 'no' : 'yes';
  const countNoisy = noise > 0 ? 'yes' : 'no';
  const myChoice = question.answer?.choice ?? null;
  const muted = (chunks: ReactNode[]) => <span className="muted">{chunks}</span>;

  if (question.type === 'MC') {
    const rows = comparison?.rows.length
      ? comparison.rows.map((row) => ({ ...row, mine: row.key === myChoice }))
      : rowsFromResults(question, filtered, overall).map((row) => ({ ...row, mine: row.key === myChoice }));
    return (
      <div className="stack">
        <p className="muted">
          <FormattedMessage id="insights.filtered.match" values={{ about: countNoisy, count: filtered.count }} />
        </p>
        <ComparisonBars rows={rows} filteredLabel={filteredLabel} />
        {comparison && (
          <p className="comparison__note muted">
            <FormattedMessage id="insights.filtered.marginNote" values={{ noisy, level: format.percent(95) }} />
          </p>
        )}
        {!exact && <NoiseNote noise={noise} />}
      </div>
    );
  }

  const average = comparison?.average;
  return (
    <div className="stack">
      {average && (
        <p className="average-comparison">
          <FormattedMessage
            id="insights.filtered.average"
            values={{
              value: format.average(average.value),
              margin: format.average(average.margin),
              overall: format.average(average.overall),
              strong: (chunks) => <strong>{chunks}</strong>,
              muted,
            }}
          />
          {average.significant && (
            <span className="significance">
              <FormattedMessage id="insights.significant" />
            </span>
          )}
        </p>
      )}
      <div className="side-by-side">
        <section aria-label={filteredLabel}>
          <h3 className="side-by-side__title">
            <FormattedMessage
              id="insights.filtered.groupTitle"
              values={{ label: filteredLabel, about: countNoisy, count: filtered.count, muted }}
            />
          </h3>
          <QuestionResult question={question} result={filtered} myChoice={myChoice} />
        </section>
        <section aria-label={intl.formatMessage({ id: 'insights.everyone' })}>
          <h3 className="side-by-side__title">
            <FormattedMessage id="insights.filtered.everyoneTitle" values={{ count: overall.count, muted }} />
          </h3>
          <QuestionResult question={question} result={overall} myChoice={myChoice} />
        </section>
      </div>
      {!exact && <NoiseNote noise={noise} />}
    </div>
  );
}
