import type { Question, Result } from '@pollscope/contract';
import { FormattedMessage, useIntl } from 'react-intl';
import { averageOf, mcAnswers, mcChoices, rangeOf, valueAnswers } from '../../lib/question-shape';
import { Banner } from '../ui/banner';
import { McResultBars } from './mc-result-bars';
import { ValueDistribution } from './value-distribution';

/** What shows in place of a result when too few people match it to show it. */
export function TooFewResults() {
  return (
    <Banner tone="info">
      <FormattedMessage id="results.tooFew" />
    </Banner>
  );
}

interface QuestionResultProps {
  question: Pick<Question, 'type' | 'choices' | 'title'>;
  result: Result;
  myChoice?: number | null;
}

/** A question's result drawn for its type: percentage bars for a choice, a distribution for a rating or a number. */
export function QuestionResult({ question, result, myChoice = null }: QuestionResultProps) {
  const intl = useIntl();
  if (result.suppressed) return <TooFewResults />;
  if (result.count === 0)
    return (
      <p className="muted">
        <FormattedMessage id="results.noVotes" />
      </p>
    );
  if (question.type === 'MC')
    return <McResultBars choices={mcChoices(question)} answers={mcAnswers(result)} myChoice={myChoice} />;
  return (
    <ValueDistribution
      range={rangeOf(question)}
      answers={valueAnswers(result)}
      average={averageOf(result)}
      myChoice={myChoice}
      caption={intl.formatMessage({ id: 'results.caption' }, { title: question.title })}
    />
  );
}
