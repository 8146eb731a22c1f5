import type { QuizItem } from '@pollscope/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeQuestion } from '../../../testing/factories';
import { renderScreen } from '../../../testing/render';
import { readQuizAnswers } from '../quiz-answers';
import { QuizFlow } from './quiz-flow';

const items: QuizItem[] = [
  {
    question: makeQuestion({
      id: 1,
      title: 'Which planet is known as the Red Planet?',
      choices: [
        { key: 1, value: 'Venus' },
        { key: 2, value: 'Mars' },
      ],
    }),
    answer: 2,
    strict: true,
  },
  { question: makeQuestion({ id: 2, title: 'How do you spend a free evening?' }), answer: null, strict: false },
];

describe('QuizFlow', () => {
  it('keeps the visitor on a strict question until the answer is right', async () => {
    const { user } = renderScreen(<QuizFlow items={items} onFinished={vi.fn()} />);
    expect(screen.getByText('Question 1 of 2')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Venus'));
    await user.click(screen.getByRole('button', { name: 'Next Question' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Your answer is wrong!');
    expect(screen.getByText('Which planet is known as the Red Planet?')).toBeInTheDocument();

    await user.click(screen.getByLabelText('Mars'));
    await user.click(screen.getByRole('button', { name: 'Next Question' }));
    expect(screen.getByText('How do you spend a free evening?')).toBeInTheDocument();
    expect(screen.queryByText('Your answer is wrong!')).not.toBeInTheDocument();
  });

  it('labels the last button "Next", keeps the answers and finishes', async () => {
    const onFinished = vi.fn();
    const { user } = renderScreen(<QuizFlow items={items} onFinished={onFinished} />);
    await user.click(screen.getByLabelText('Mars'));
    await user.click(screen.getByRole('button', { name: 'Next Question' }));
    await user.click(screen.getByLabelText('Coffee'));
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(onFinished).toHaveBeenCalledOnce();
    expect(readQuizAnswers()).toEqual([
      { question: 1, choice: 2 },
      { question: 2, choice: 2 },
    ]);
  });

  it('shows the quiz in the reader’s language and keeps the answers’ keys', async () => {
    const seeded: QuizItem[] = [
      {
        question: makeQuestion({
          id: 7,
          title: 'Coffee or tea?',
          choices: [
            { key: 1, value: 'Coffee' },
            { key: 2, value: 'Tea' },
          ],
        }),
        answer: null,
        strict: false,
      },
    ];
    const onFinished = vi.fn();
    const { user } = renderScreen(<QuizFlow items={seeded} onFinished={onFinished} />, { locale: 'de' });
    expect(await screen.findByRole('heading', { name: 'Kaffee oder Tee?' })).toBeInTheDocument();
    expect(screen.getByText('Frage 1 von 1')).toBeInTheDocument();
    await user.click(screen.getByLabelText('Tee'));
    await user.click(screen.getByRole('button', { name: 'Weiter' }));
    expect(onFinished).toHaveBeenCalledOnce();
    expect(readQuizAnswers()).toContainEqual({ question: 7, choice: 2 });
  });
});
