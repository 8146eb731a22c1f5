import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeQuestion } from '../../testing/factories';
import { renderScreen } from '../../testing/render';
import { AnswerForm } from './answer-form';

describe('AnswerForm', () => {
  it('alerts "Please enter your answer!" for an empty number', async () => {
    const onSubmit = vi.fn();
    const question = makeQuestion({ type: 'N', choices: { min: 0, max: 120 } });
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    const { user } = renderScreen(<AnswerForm question={question} submitLabel="Vote" onSubmit={onSubmit} />);
    const input = screen.getByLabelText('Your answer (0 to 120)');
    expect(input).toHaveAttribute('min', '0');
    expect(input).toHaveAttribute('max', '120');
    await user.click(screen.getByRole('button', { name: 'Vote' }));
    expect(alert).toHaveBeenCalledWith('Please enter your answer!');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('keeps a number within the question bounds', async () => {
    const onSubmit = vi.fn();
    const question = makeQuestion({ type: 'N', choices: { min: 0, max: 120 } });
    const { user } = renderScreen(<AnswerForm question={question} submitLabel="Vote" onSubmit={onSubmit} />);
    await user.type(screen.getByLabelText('Your answer (0 to 120)'), '500');
    await user.click(screen.getByRole('button', { name: 'Vote' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter a number from 0 to 120.');
    await user.clear(screen.getByLabelText('Your answer (0 to 120)'));
    await user.type(screen.getByLabelText('Your answer (0 to 120)'), '42');
    await user.click(screen.getByRole('button', { name: 'Vote' }));
    expect(onSubmit).toHaveBeenCalledWith(42);
  });

  it('starts the rating slider at half the maximum, in whole steps', async () => {
    const onSubmit = vi.fn();
    const question = makeQuestion({ type: 'RS', choices: { min: 1, max: 10 } });
    const { user } = renderScreen(<AnswerForm question={question} submitLabel="Vote" onSubmit={onSubmit} />);
    const slider = screen.getByRole('slider', { name: 'Your rating from 1 to 10' });
    expect(slider).toHaveValue('5');
    expect(slider).toHaveAttribute('step', '1');
    expect(slider).toHaveAttribute('min', '1');
    expect(slider).toHaveAttribute('max', '10');
    await user.click(screen.getByRole('button', { name: 'Vote' }));
    expect(onSubmit).toHaveBeenCalledWith(5);
  });

  it('lays three choices in three columns and others in two', () => {
    const three = makeQuestion({
      choices: [
        { key: 1, value: 'Red' },
        { key: 2, value: 'Green' },
        { key: 3, value: 'Blue' },
      ],
    });
    const { container, unmount } = renderScreen(<AnswerForm question={three} submitLabel="Vote" onSubmit={vi.fn()} />);
    expect(container.querySelector('.choice-grid')).toHaveClass('choice-grid--3');
    unmount();
    const { container: twoColumns } = renderScreen(
      <AnswerForm question={makeQuestion()} submitLabel="Vote" onSubmit={vi.fn()} />,
    );
    expect(twoColumns.querySelector('.choice-grid')).not.toHaveClass('choice-grid--3');
  });

  it('lets a choice be sent only once one is picked', async () => {
    const onSubmit = vi.fn();
    const { user } = renderScreen(<AnswerForm question={makeQuestion()} submitLabel="Vote" onSubmit={onSubmit} />);
    expect(screen.getByRole('button', { name: 'Vote' })).toBeDisabled();
    await user.click(screen.getByLabelText('Coffee'));
    await user.click(screen.getByRole('button', { name: 'Vote' }));
    expect(onSubmit).toHaveBeenCalledWith(2);
  });
});
