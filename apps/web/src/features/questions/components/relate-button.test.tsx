import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { answered, makeQuestion } from '../../../testing/factories';
import { renderScreen } from '../../../testing/render';
import { clearRelateSelection, toggleRelateSelection } from '../relate-selection';
import { QuestionCard } from './question-card';
import { RelateTray } from './relate-tray';

const votes = [
  { key: 1, percent: 50 },
  { key: 2, percent: 50 },
];

function renderCards() {
  return renderScreen(
    <>
      <RelateTray />
      <QuestionCard question={answered(makeQuestion({ id: 3, qid: 3, title: 'First' }), 1, votes)} />
      <QuestionCard question={answered(makeQuestion({ id: 5, qid: 5, title: 'Second' }), 1, votes)} />
    </>,
  );
}

const relateButtonOf = (title: string) =>
  screen.getByRole('article', { name: title }).querySelector('.relate-button') as HTMLElement;

describe('relate selection', () => {
  beforeEach(clearRelateSelection);

  it('highlights a selected question and deselects it on a second click', async () => {
    const { user } = renderCards();
    await user.click(relateButtonOf('First'));
    expect(relateButtonOf('First')).toHaveAttribute('aria-pressed', 'true');
    expect(relateButtonOf('First')).toHaveClass('relate-button--selected');
    expect(screen.getByRole('status')).toHaveTextContent('1 of 2 selected.');

    await user.click(relateButtonOf('First'));
    expect(relateButtonOf('First')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByText('1 of 2 selected.')).not.toBeInTheDocument();
  });

  it('opens relate for the two questions in the order they were picked', async () => {
    const { user } = renderCards();
    await user.click(relateButtonOf('Second'));
    await user.click(relateButtonOf('First'));
    expect(screen.getByTestId('location')).toHaveTextContent('/relate/5/3/');
  });

  it('ignores a third question', () => {
    toggleRelateSelection(1);
    toggleRelateSelection(2);
    expect(toggleRelateSelection(3)).toEqual([1, 2]);
  });

  it('offers relate only for answered multiple-choice questions', () => {
    renderScreen(
      <QuestionCard
        question={makeQuestion({
          type: 'RS',
          choices: { min: 1, max: 10 },
          answer: { choice: 4 },
          result: { count: 1, answers: [{ choice: 4, count: 1 }] },
        })}
      />,
    );
    expect(screen.getByRole('link', { name: 'Breakdown' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Relate' })).not.toBeInTheDocument();
  });
});
