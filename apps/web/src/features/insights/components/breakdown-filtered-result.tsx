import { AGE_FILTER_DEFAULTS, type BreakdownResult, type Question } from '@pollscope/contract';
import type { Ref } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { useFormat } from '../../../i18n/format';
import { FilteredResult } from './filtered-result';

interface BreakdownFilteredResultProps {
  ref: Ref<HTMLElement>;
  /** The question as a whole, whose count the filtered one is told against. */
  question: Question;
  filtered: BreakdownResult;
}

/** The question's result among the voters the filter keeps, beside everyone's; nothing when none was released. */
export function BreakdownFilteredResult({ ref, question, filtered }: BreakdownFilteredResultProps) {
  const intl = useIntl();
  const format = useFormat();
  if (!filtered.question.result) return null;
  return (
    <section
      ref={ref}
      className="card stack breakdown-result"
      aria-labelledby="breakdown-result-title"
      aria-live="polite"
    >
      <h2 id="breakdown-result-title">
        <FormattedMessage id="insights.breakdown.filteredResult" />
      </h2>
      {filtered.ages && (
        <p className="muted">
          <FormattedMessage
            id="insights.breakdown.ages"
            values={{
              open: filtered.ages.max >= AGE_FILTER_DEFAULTS.max ? 'yes' : 'no',
              min: filtered.ages.min,
              max: filtered.ages.max,
            }}
          />
        </p>
      )}
      {question.result && filtered.privacy.counted < question.result.count && (
        <p className="muted">
          <FormattedMessage
            id="insights.breakdown.counted"
            values={{ counted: format.count(filtered.privacy.counted), count: question.result.count }}
          />
        </p>
      )}
      <FilteredResult
        question={filtered.question}
        filtered={filtered.question.result}
        overall={filtered.overall}
        comparison={filtered.comparison}
        filteredLabel={intl.formatMessage({ id: 'insights.breakdown.filteredVoters' })}
        noise={filtered.privacy.count_sd}
        exact={filtered.privacy.exact}
      />
    </section>
  );
}
