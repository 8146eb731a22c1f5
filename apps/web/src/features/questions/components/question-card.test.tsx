import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { controlledEventStream, stubStreams } from '../../../testing/event-stream-stub';
import { answered, makeQuestion } from '../../../testing/factories';
import { ReportContext } from '../../../hooks/use-report';
import { renderScreen } from '../../../testing/render';
import { QuestionCard } from './question-card';

describe('QuestionCard', () => {
  it('shows the tag, date, author and QID, each leading somewhere', () => {
    renderScreen(<QuestionCard question={makeQuestion()} />);
    expect(screen.getByRole('link', { name: '#drinks' })).toHaveAttribute('href', '/tag/drinks');
    expect(screen.getByRole('link', { name: /Ada/ })).toHaveAttribute('href', '/user/12');
    expect(screen.getByText('4 May 2026')).toBeInTheDocument();
    expect(screen.getByText('QID007')).toBeInTheDocument();
  });

  it('writes the date on its day in UTC and the votes with the language’s plural and grouping', async () => {
    const late = makeQuestion({ published_at: '2026-05-04T23:30:00-02:00', vote_count: 1 });
    const { unmount } = renderScreen(<QuestionCard question={late} />);
    expect(screen.getByText('5 May 2026')).toBeInTheDocument();
    expect(screen.getByText('1 vote')).toBeInTheDocument();
    unmount();
    renderScreen(<QuestionCard question={makeQuestion({ vote_count: 12345 })} />, { locale: 'de' });
    expect(await screen.findByText('4. Mai 2026')).toBeInTheDocument();
    expect(screen.getByText('12.345 Stimmen')).toBeInTheDocument();
  });

  it('names the question’s language only where it is not the reader’s', async () => {
    const { unmount } = renderScreen(
      <QuestionCard question={makeQuestion({ language: 'de', title: 'Tee oder Kaffee?' })} />,
    );
    const card = screen.getByRole('article', { name: 'Tee oder Kaffee?' });
    expect(within(card).getByText('German')).toHaveAttribute('title', 'Written in German');
    expect(within(card).getByRole('heading', { name: 'Tee oder Kaffee?' })).toHaveAttribute('lang', 'de');
    unmount();

    const { unmount: unmountEnglish } = renderScreen(<QuestionCard question={makeQuestion()} />);
    expect(screen.getByText('4 May 2026')).toBeInTheDocument();
    expect(screen.queryByText('English')).not.toBeInTheDocument();
    unmountEnglish();

    // In German an English question says so; in Brazilian Portuguese a Portuguese one does not.
    const { unmount: unmountGerman } = renderScreen(<QuestionCard question={makeQuestion()} />, { locale: 'de' });
    expect(await screen.findByText('Englisch')).toHaveAttribute('title', 'Auf Englisch geschrieben');
    unmountGerman();
    renderScreen(<QuestionCard question={makeQuestion({ language: 'pt' })} />, { locale: 'pt-BR' });
    expect(await screen.findByText('Curtir')).toBeInTheDocument();
    expect(screen.queryByText('Português')).not.toBeInTheDocument();
  });

  it('shows how many voted before voting too, keeping the split for after', () => {
    renderScreen(<QuestionCard question={makeQuestion({ vote_count: 1234 })} />);
    expect(screen.getByText('1,234 votes')).toBeInTheDocument();
    expect(screen.getByText('· vote to see results')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Results' })).not.toBeInTheDocument();
  });

  it('locks the vote and shows the result once answered', async () => {
    const question = makeQuestion();
    stubApi().on('POST /api/polls/answer/:id/', {
      body: answered(question, 2, [
        { key: 1, percent: 40 },
        { key: 2, percent: 60 },
      ]),
    });
    const { user } = renderScreen(<QuestionCard question={question} />);
    expect(screen.queryByRole('link', { name: 'Breakdown' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Relate' })).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Coffee'));
    await user.click(screen.getByRole('button', { name: 'Vote' }));

    const results = await screen.findByRole('region', { name: 'Results' });
    expect(within(results).getByText('60%')).toBeInTheDocument();
    expect(within(results).getByText('(your answer)', { exact: false })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Vote' })).not.toBeInTheDocument();
    expect(screen.queryByRole('radio')).not.toBeInTheDocument();
    expect(screen.getByText('10 votes')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Breakdown' })).toHaveAttribute('href', '/breakdown/7');
    expect(screen.getByRole('button', { name: 'Relate' })).toBeInTheDocument();
  });

  it('follows the result on screen as others vote', async () => {
    const stream = controlledEventStream();
    const fetchMock = stubStreams([stream]);
    const question = answered(makeQuestion(), 2, [
      { key: 1, percent: 40 },
      { key: 2, percent: 60 },
    ]);
    renderScreen(<QuestionCard question={question} />);
    expect(screen.getByText('10 votes')).toBeInTheDocument();
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledOnce());

    const fresh = {
      count: 12,
      answers: [
        { key: 1, percent: 50 },
        { key: 2, percent: 50 },
      ],
    };
    stream.send(`event: result\ndata: ${JSON.stringify({ id: 7, result: fresh, like_count: 5 })}\n\n`);
    expect(await screen.findByText('12 votes')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Results' })).getAllByText('50%')).toHaveLength(2);
    expect(screen.getByRole('button', { name: /Like/ })).toHaveTextContent('5');
  });

  it('shows a rating result as a distribution with its average to 2 decimals', () => {
    const question = makeQuestion({
      type: 'RS',
      choices: { min: 1, max: 10 },
      answer: { choice: 7 },
      result: {
        count: 3,
        answers: [
          { choice: 7, count: 2 },
          { choice: 4, count: 1 },
        ],
        average: 6,
      },
    });
    renderScreen(<QuestionCard question={question} />);
    expect(screen.getByText('6.00')).toBeInTheDocument();
    expect(screen.getByRole('table', { name: /Votes per answer/ })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '7 (your answer)' })).toBeInTheDocument();
  });

  it('likes, then unlikes, following the state the server returns', async () => {
    const { requests, on } = stubApi();
    on('POST /api/polls/like/:id/', { body: { liked: true } });
    on('POST /api/polls/unlike/:id/', { body: { liked: false } });
    const { user } = renderScreen(<QuestionCard question={makeQuestion()} />);
    const like = screen.getByRole('button', { name: /Like/ });
    expect(like).toHaveAttribute('aria-pressed', 'false');
    expect(like).toHaveTextContent('3');

    await user.click(like);
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: /Like/ })).toHaveAttribute('aria-pressed', 'true'),
    );
    expect(screen.getByRole('button', { name: /Like/ })).toHaveTextContent('4');

    await user.click(screen.getByRole('button', { name: /Like/ }));
    await vi.waitFor(() =>
      expect(screen.getByRole('button', { name: /Like/ })).toHaveAttribute('aria-pressed', 'false'),
    );
    expect(screen.getByRole('button', { name: /Like/ })).toHaveTextContent('3');
    expect(requests.map((request) => request.path)).toEqual(['/api/polls/like/7/', '/api/polls/unlike/7/']);
  });

  it('hides only after confirming, then lets the list reload', async () => {
    const { requests, on } = stubApi();
    on('POST /api/polls/pass/:id/', { body: { passed: true } });
    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    const onPassedChange = vi.fn();
    const { user } = renderScreen(<QuestionCard question={makeQuestion()} onPassedChange={onPassedChange} />);

    await user.click(screen.getByRole('button', { name: 'Hide' }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to hide this question?');
    expect(requests).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Hide' }));
    await vi.waitFor(() => expect(onPassedChange).toHaveBeenCalledWith(true));
    expect(requests.map((request) => request.path)).toEqual(['/api/polls/pass/7/']);
    expect(screen.getByRole('button', { name: 'Unhide' })).toBeInTheDocument();
  });

  it('unhides a hidden question without asking', async () => {
    const { requests, on } = stubApi();
    on('POST /api/polls/unpass/:id/', { body: { passed: false } });
    const { user } = renderScreen(<QuestionCard question={makeQuestion({ passed: true })} />);
    await user.click(screen.getByRole('button', { name: 'Unhide' }));
    await vi.waitFor(() => expect(screen.getByRole('button', { name: 'Hide' })).toBeInTheDocument());
    expect(requests.map((request) => request.path)).toEqual(['/api/polls/unpass/7/']);
  });

  it('offers Report in its menu where the app provides it, by keyboard, and not on one’s own question', async () => {
    const report = vi.fn();
    const { user, unmount } = renderScreen(
      <ReportContext value={report}>
        <QuestionCard question={makeQuestion()} />
      </ReportContext>,
    );
    const more = screen.getByRole('button', { name: 'More actions' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    more.focus();
    await user.keyboard('{Enter}');
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByRole('menuitem', { name: 'Report question' })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(more).toHaveFocus();

    await user.click(more);
    await user.click(screen.getByRole('menuitem', { name: 'Report question' }));
    expect(report).toHaveBeenCalledWith({ target: 'question', id: 7, name: 'Tea or coffee?' }, more);
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();

    unmount();
    renderScreen(
      <ReportContext value={report}>
        <QuestionCard question={makeQuestion({ owner: true })} />
      </ReportContext>,
    );
    expect(screen.queryByRole('button', { name: 'More actions' })).not.toBeInTheDocument();
  });

  it('has no menu where nothing provides a report', () => {
    renderScreen(<QuestionCard question={makeQuestion()} />);
    expect(screen.queryByRole('button', { name: 'More actions' })).not.toBeInTheDocument();
  });

  it('tells its author a moderator removed it, and why, or that reports put it under review', () => {
    const { unmount } = renderScreen(
      <QuestionCard
        question={makeQuestion({ owner: true, moderation: { status: 'removed', reason: 'Advertising, not a poll.' } })}
      />,
    );
    const card = screen.getByRole('article', { name: 'Tea or coffee?' });
    expect(within(card).getByText('Removed by a moderator')).toBeInTheDocument();
    expect(within(card).getByText(/Only you can see it\. Reason: Advertising, not a poll\./)).toBeInTheDocument();
    unmount();

    renderScreen(
      <QuestionCard question={makeQuestion({ owner: true, moderation: { status: 'under_review', reason: null } })} />,
    );
    expect(screen.getByText('Under review')).toBeInTheDocument();
    expect(screen.queryByText(/Reason:/)).not.toBeInTheDocument();
  });
});
