import type { Question, Result } from '@pollscope/contract';
import { averageOf, mcAnswers, mcChoices, rangeOf, valueAnswers } from '../../lib/question-shape';
import { Banner } from '../ui/banner';
import { McResultBars } from './mc-result-bars';
import { ValueDistribution } from './value-distribution';

export const TOO_FEW_MESSAGE = 'Too few people match to show results. Try wider filters.';

interface QuestionResultProps {
  question: Pick<Question, 'type' | 'choices' | 'title'>;
  result: Result;
  myChoice?: number | null;
}

/** A question's result drawn for its type: percentage bars for a choice, a distribution for a rating or a number. */
export function QuestionResult({ question, result, myChoice = null }: QuestionResultProps) {
  if (result.suppressed) return <Banner tone="info">{TOO_FEW_MESSAGE}</Banner>;
  if (result.count === 0) return <p className="muted">No votes yet.</p>;
  if (question.type === 'MC')
    return <McResultBars choices={mcChoices(question)} answers={mcAnswers(result)} myChoice={myChoice} />;
  return (
    <ValueDistribution
      range={rangeOf(question)}
      answers={valueAnswers(result)}
      average={averageOf(result)}
      myChoice={myChoice}
      caption={`Votes per answer to: ${question.title}`}
    />
  );
}
