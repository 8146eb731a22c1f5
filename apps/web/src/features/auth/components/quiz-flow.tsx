import type { QuizItem } from '@pollscope/contract';
import { useState } from 'react';
import { AnswerForm } from '../../../components/answer/answer-form';
import { saveQuizAnswer } from '../quiz-answers';
import './auth.css';

export const QUIZ_WRONG_MESSAGE = 'Your answer is wrong!';

interface QuizFlowProps {
  items: QuizItem[];
  onFinished: () => void;
}

/** One quiz question at a time; a strict item lets the visitor on only with the expected answer. */
export function QuizFlow({ items, onFinished }: QuizFlowProps) {
  const [index, setIndex] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const item = items[index];
  const isLast = index === items.length - 1;

  function answer(choice: number) {
    if (item.strict && choice !== item.answer) {
      setError(QUIZ_WRONG_MESSAGE);
      return;
    }
    setError(null);
    saveQuizAnswer({ question: item.question.id, choice });
    if (isLast) onFinished();
    else setIndex(index + 1);
  }

  return (
    <section className="card quiz" aria-labelledby="quiz-question">
      <div className="quiz__progress">
        <span className="eyebrow">
          Question {index + 1} of {items.length}
        </span>
        <div
          className="quiz__bar"
          role="progressbar"
          aria-label="Quiz progress"
          aria-valuemin={0}
          aria-valuemax={items.length}
          aria-valuenow={index + 1}
        >
          <div className="quiz__bar-fill" style={{ width: `${((index + 1) / items.length) * 100}%` }} />
        </div>
      </div>
      <h2 id="quiz-question" className="quiz__title">
        {item.question.title}
      </h2>
      <AnswerForm
        key={item.question.id}
        question={item.question}
        submitLabel={isLast ? 'Next' : 'Next Question'}
        error={error}
        onSubmit={answer}
      />
    </section>
  );
}
