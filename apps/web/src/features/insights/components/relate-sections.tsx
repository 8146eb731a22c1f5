import { displayId, RELATE_PAIRS_PER_QUESTION, type RelatePair } from '@pollscope/contract';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { QuestionResult } from '../../../components/results/question-result';
import { Banner } from '../../../components/ui/banner';
import { Button } from '../../../components/ui/button';
import { mcChoices, questionTypeLabels } from '../../../lib/question-shape';
import type { RelateFilter } from '../hooks/use-relate-filter';
import { FilteredResult } from './filtered-result';
import { ReleaseNote, ReleasedGroupChart } from './released-group-chart';

const mono = (chunks: ReactNode[]) => <span className="mono">{chunks}</span>;

interface FirstQuestionProps {
  first: RelatePair['first'];
  filter: RelateFilter;
  /** The picked choice of the second question, in words. */
  choiceText: string;
}

/** The first question with its result: among everyone, or among the voters of the choice picked. */
export function RelateFirstQuestion({ first, filter, choiceText }: FirstQuestionProps) {
  const intl = useIntl();
  const { filtered, choice } = filter;
  return (
    <section className="card stack" aria-labelledby="relate-first">
      <p className="eyebrow">
        <FormattedMessage
          id="insights.relate.firstMeta"
          values={{
            qid: displayId('QID', first.qid),
            type: intl.formatMessage({ id: questionTypeLabels[first.type] }),
            voted: first.result ? 'yes' : 'no',
            count: first.result?.count ?? 0,
            id: mono,
          }}
        />
      </p>
      <h2 id="relate-first">{first.title}</h2>
      {!filtered && first.result && (
        <QuestionResult question={first} result={first.result} myChoice={first.answer?.choice ?? null} />
      )}
      {filtered?.question.result && choice !== null && (
        <div className="stack" aria-live="polite">
          <p className="relate-caption">
            <FormattedMessage
              id="insights.relate.caption"
              values={{ qid: displayId('QID', first.qid), choice: choiceText }}
            />
          </p>
          <FilteredResult
            question={filtered.question}
            filtered={filtered.question.result}
            overall={filtered.overall}
            comparison={filtered.comparison}
            filteredLabel={intl.formatMessage({ id: 'insights.relate.choiceVoters' }, { choice: choiceText })}
            noise={filtered.privacy?.count_sd ?? 0}
            exact={false}
          />
        </div>
      )}
    </section>
  );
}

interface SecondQuestionProps {
  second: RelatePair['second'];
  filter: RelateFilter;
  /** Whether this pair's results are no longer released: the question's budget of pairs is spent. */
  unreleased: boolean;
}

/** The second question, whose choices pick the voters the first question's result is shown among. */
export function RelateSecondQuestion({ second, filter, unreleased }: SecondQuestionProps) {
  const { choice, pending, filterError, pick } = filter;
  return (
    <section className="card stack" aria-labelledby="relate-second">
      <p className="eyebrow">
        <FormattedMessage id="insights.relate.secondMeta" values={{ qid: displayId('QID', second.qid), id: mono }} />
      </p>
      <h2 id="relate-second">{second.title}</h2>
      <div className={mcChoices(second).length === 3 ? 'relate-choices relate-choices--3' : 'relate-choices'}>
        {mcChoices(second).map((option) => (
          <Button
            key={option.key}
            className="relate-choice"
            aria-pressed={choice === option.key}
            pending={pending === option.key}
            disabled={pending !== null}
            onClick={() => void pick(option.key)}
          >
            {option.value}
          </Button>
        ))}
      </div>
      {filterError && <Banner tone="error">{filterError}</Banner>}
      {unreleased && (
        <Banner tone="info">
          <FormattedMessage id="insights.relate.budgetSpent" values={{ count: RELATE_PAIRS_PER_QUESTION }} />
        </Banner>
      )}
    </section>
  );
}

/** The first question's released result among each choice's voters of the second, side by side. */
export function RelateSideBySide({ data, choice }: { data: RelatePair; choice: number | null }) {
  const { first, second } = data;
  return (
    <section className="card stack" aria-labelledby="relate-side-by-side">
      <div className="stack relate-side-by-side__intro">
        <h2 id="relate-side-by-side">
          <FormattedMessage id="insights.relate.sideBySide" />
        </h2>
        <p className="muted">
          <FormattedMessage
            id="insights.relate.sideBySideIntro"
            values={{ second: displayId('QID', second.qid), first: displayId('QID', first.qid) }}
          />
        </p>
      </div>
      <ul className="released-groups released-groups--side">
        {data.choices.map((group) => (
          <li key={group.key}>
            <ReleasedGroupChart question={first} group={group} current={group.key === choice} />
          </li>
        ))}
      </ul>
      <ReleaseNote />
    </section>
  );
}
