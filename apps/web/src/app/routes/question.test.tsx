import type { EmbedAnsweredMessage, Question } from '@pollscope/contract';
import { screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { stubApi } from '../../testing/api-stub';
import { answered, makeQuestion } from '../../testing/factories';
import { renderScreen } from '../../testing/render';
import { Component as QuestionScreen } from './question';

const question = makeQuestion({ id: 7, title: 'Tea or coffee?' });
const coffee = answered(question, 2, [
  { key: 1, percent: 40 },
  { key: 2, percent: 60 },
]);

/** The embed that opened the window: a page of the site, at the question's embed. */
function openedByEmbed(pathname = '/embed/q/7') {
  const postMessage = vi.fn<(message: EmbedAnsweredMessage, targetOrigin: string) => void>();
  vi.stubGlobal('opener', { location: { origin: window.location.origin, pathname }, postMessage });
  return postMessage;
}

/** The question screen, opened at `/question/7?answer=…` and showing `shown` as the API sends it. */
function openWindow(answer: string, shown: Question = question) {
  const api = stubApi();
  api.on('GET /api/polls/question/:id/', { body: shown });
  api.on('POST /api/polls/answer/:id/', { body: coffee });
  const view = renderScreen(<QuestionScreen />, {
    at: `/question/7?answer=${encodeURIComponent(answer)}`,
    path: '/question/:questionId',
  });
  const votes = () => api.requests.filter((request) => request.method === 'POST');
  return { ...view, votes };
}

let close: ReturnType<typeof vi.fn>;
beforeEach(() => {
  close = vi.fn();
  vi.stubGlobal('close', close);
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the window an embed opens to vote', () => {
  it('preselects the embed’s answer and votes only on the person’s click', async () => {
    const postMessage = openedByEmbed();
    const { user, votes } = openWindow('2');
    expect(
      await screen.findByText('You chose this answer on another site. Confirm it to count your vote.'),
    ).toBeVisible();
    expect(screen.getByRole('radio', { name: 'Coffee' })).toBeChecked();
    expect(votes()).toEqual([]);
    expect(postMessage).not.toHaveBeenCalled();

    await user.click(screen.getByRole('button', { name: 'Confirm my vote' }));
    await vi.waitFor(() => expect(close).toHaveBeenCalledOnce());
    expect(votes()).toEqual([expect.objectContaining({ path: '/api/polls/answer/7/', body: { choice: 2 } })]);
    // Posted to this site's own pages only: the embed is one, wherever it is framed.
    expect(postMessage).toHaveBeenCalledExactlyOnceWith(
      { type: 'pollscope:answered', question_id: 7, choice: 2, result: coffee.result },
      window.location.origin,
    );
    expect(screen.getByText('Your vote is counted. You can close this window.')).toBeVisible();
  });

  it('tells the embed the answer already given, without voting again', async () => {
    const postMessage = openedByEmbed();
    const { votes } = openWindow('1', coffee);
    await vi.waitFor(() => expect(close).toHaveBeenCalledOnce());
    expect(postMessage).toHaveBeenCalledExactlyOnceWith(
      { type: 'pollscope:answered', question_id: 7, choice: 2, result: coffee.result },
      window.location.origin,
    );
    expect(votes()).toEqual([]);
    const results = screen.getByRole('region', { name: 'Results' });
    expect(within(results).getByText('(your answer)', { exact: false })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Confirm my vote' })).not.toBeInTheDocument();
  });

  it('opened directly, shows the result as the question screen does and stays open', async () => {
    const { user } = openWindow('2');
    await user.click(await screen.findByRole('button', { name: 'Confirm my vote' }));
    expect(await screen.findByRole('region', { name: 'Results' })).toBeVisible();
    expect(screen.getByText('60%')).toBeVisible();
    expect(close).not.toHaveBeenCalled();
    expect(screen.queryByText('Your vote is counted. You can close this window.')).not.toBeInTheDocument();
  });

  it('tells nothing to an opener that is not this question’s embed', async () => {
    const postMessage = openedByEmbed('/embed/q/8');
    openWindow('1', coffee);
    expect(await screen.findByRole('region', { name: 'Results' })).toBeVisible();
    expect(postMessage).not.toHaveBeenCalled();
    expect(close).not.toHaveBeenCalled();
  });

  it('says so when the answer is not one the question offers, and preselects nothing', async () => {
    openedByEmbed();
    for (const answer of ['3', 'tea', '1.5', '']) {
      const { unmount } = openWindow(answer);
      expect(
        await screen.findByText(`“${answer}” is not one of this question’s answers. Choose one below.`),
      ).toBeVisible();
      expect(screen.getByRole('radio', { name: 'Tea' })).not.toBeChecked();
      expect(screen.getByRole('radio', { name: 'Coffee' })).not.toBeChecked();
      expect(screen.getByRole('button', { name: 'Confirm my vote' })).toBeDisabled();
      unmount();
    }
  });

  it('holds a rating or a number to the question’s bounds', async () => {
    const rating = makeQuestion({ type: 'RS', title: 'Rate the weather', choices: { min: 1, max: 10 } });
    const { unmount } = openWindow('11', rating);
    expect(await screen.findByText('“11” is not one of this question’s answers. Choose one below.')).toBeVisible();
    unmount();
    const number = makeQuestion({ type: 'N', title: 'How many cups a day?', choices: { min: 0, max: 20 } });
    openWindow('4', number);
    expect(await screen.findByRole('spinbutton')).toHaveValue(4);
    expect(screen.getByText('You chose this answer on another site. Confirm it to count your vote.')).toBeVisible();
  });
});
