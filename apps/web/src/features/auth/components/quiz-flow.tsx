import type { QuizItem } from '@pollscope/contract';
import { useMemo, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AnswerForm } from '../../../components/answer/answer-form';
import { saveQuizAnswer } from '../quiz-answers';
import { translatedQuizQuestion } from '../seeded-quiz';
import './auth.css';

interface QuizFlowProps {
  items: QuizItem[];
  onFinished: () => void;
}

/** One quiz question at a time; a strict item lets the visitor on only with the expected answer. */
export function QuizFlow({ items, onFinished }: QuizFlowProps) {
  const intl = useIntl();
  const [index, setIndex] = useState(0);
  const [wrong, setWrong] = useState(false);
  const item = items[index];
  const question = useMemo(() => translatedQuizQuestion(intl, item.question), [intl, item.question]);
  const isLast = index === items.length - 1;

  function answer(choice: number) {
    if (item.strict && choice !== item.answer) {
      setWrong(true);
      return;
    }
    setWrong(false);
    saveQuizAnswer({ question: item.question.id, choice });
    if (isLast) onFinished();
    else setIndex(index + 1);
  }

  return (
    <section className="card quiz" aria-labelledby="quiz-question">
      <div className="quiz__progress">
        <span className="eyebrow">
          <FormattedMessage id="quiz.progress" values={{ index: index + 1, total: items.length }} />
        </span>
        <div
          className="quiz__bar"
          role="progressbar"
          aria-label={intl.formatMessage({ id: 'quiz.progressLabel' })}
          aria-valuemin={0}
          aria-valuemax={items.length}
          aria-valuenow={index + 1}
        >
          <div className="quiz__bar-fill" style={{ width: `${((index + 1) / items.length) * 100}%` }} />
        </div>
      </div>
      <h2 id="quiz-question" className="quiz__title">
        {question.title}
      </h2>
      <AnswerForm
        key={item.question.id}
        question={question}
        submitLabel={intl.formatMessage({ id: isLast ? 'quiz.next' : 'quiz.nextQuestion' })}
        error={wrong ? intl.formatMessage({ id: 'quiz.wrong' }) : null}
        onSubmit={answer}
      />
    </section>
  );
}
