import { screen } from '@testing-library/react';
import { Link } from 'react-router';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { answered, makeQuestion } from '../../../testing/factories';
import { renderScreen } from '../../../testing/render';
import { useFeed } from '../api/get-feed';
import { QuestionList } from './question-list';

function Feed() {
  const feed = useFeed();
  return (
    <>
      <Link to="/elsewhere">Leave</Link>
      <QuestionList list={feed} emptyMessage="No question exist from your connections!" label="Feed" />
    </>
  );
}

const first = makeQuestion({ id: 1, qid: 1, title: 'First question' });
const second = makeQuestion({ id: 2, qid: 2, title: 'Second question' });

describe('QuestionList', () => {
  it('loads the next page with the cursor of the last one', async () => {
    const { requests, on } = stubApi();
    on('GET /api/polls/questions/', { body: { qotd: null, questions: [first], next: 'abc' } }, { query: {} });
    on(
      'GET /api/polls/questions/',
      { body: { qotd: null, questions: [second], next: null } },
      { query: { cursor: 'abc' } },
    );
    const { user } = renderScreen(<Feed />);
    await screen.findByRole('article', { name: 'First question' });
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('article', { name: 'Second question' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(requests.filter((request) => request.path.includes('cursor')).map((request) => request.path)).toEqual([
      '/api/polls/questions/?cursor=abc',
    ]);
  });

  it('remembers a vote when the feed is shown again from the cache', async () => {
    const { requests, on } = stubApi();
    on('GET /api/polls/questions/', { body: { qotd: null, questions: [first], next: null } });
    on('POST /api/polls/answer/:id/', {
      body: answered(first, 1, [
        { key: 1, percent: 100 },
        { key: 2, percent: 0 },
      ]),
    });
    const { user, router } = renderScreen(<Feed />, { routes: [{ path: '/elsewhere', element: <p>Elsewhere</p> }] });
    await screen.findByRole('article', { name: 'First question' });
    await user.click(screen.getByLabelText('Tea'));
    await user.click(screen.getByRole('button', { name: 'Vote' }));
    await screen.findByRole('region', { name: 'Results' });

    await user.click(screen.getByRole('link', { name: 'Leave' }));
    await screen.findByText('Elsewhere');
    await router.navigate(-1);
    expect(await screen.findByRole('region', { name: 'Results' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Vote' })).not.toBeInTheDocument();
    // The feed is not asked for again when stale (spec, section 9).
    expect(requests.filter((request) => request.path === '/api/polls/questions/')).toHaveLength(1);
  });

  it('says so when the feed is empty', async () => {
    stubApi().on('GET /api/polls/questions/', { body: { qotd: null, questions: [], next: null } });
    renderScreen(<Feed />);
    expect(await screen.findByText('No question exist from your connections!')).toBeInTheDocument();
  });
});
