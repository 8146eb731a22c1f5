import { RELATE_PAIRS_PER_QUESTION } from '@pollscope/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { answered, makeQuestion, makeReleasedGroup, tooFewGroup } from '../../../testing/factories';
import { renderScreen } from '../../../testing/render';
import { RelateView } from './relate-view';

const first = answered(makeQuestion({ id: 3, qid: 3, title: 'Tea or coffee?' }), 1, [
  { key: 1, percent: 50 },
  { key: 2, percent: 50 },
]);
const second = answered(
  makeQuestion({
    id: 12,
    qid: 12,
    title: 'Cats or dogs?',
    choices: [
      { key: 1, value: 'Cats' },
      { key: 2, value: 'Dogs' },
    ],
  }),
  2,
  [
    { key: 1, percent: 30 },
    { key: 2, percent: 70 },
  ],
);
const privacy = { first_counted: 64, second_counted: 64, count_sd: 62 };
/** Tea or coffee among the voters of each choice of Cats or dogs. */
const choices = [
  {
    key: 1,
    ...makeReleasedGroup({
      label: 'Cats',
      count: 310,
      count_sd: 62,
      rows: [
        { key: 1, label: 'Tea', percent: 58.4, margin: 9.3 },
        { key: 2, label: 'Coffee', percent: 41.6, margin: 9.3 },
      ],
    }),
  },
  { key: 2, ...tooFewGroup('Dogs') },
];
const association = {
  n: 120,
  chi_square: 9.2,
  df: 1,
  p_value: 0.0024,
  cramers_v: 0.28,
  significant: true,
  strength: 'weak' as const,
  summary: 'Dog people lean towards coffee.',
};

/** The pair the screen shows: question 3 among the voters of question 12. */
const pair = { params: { a: 3, b: 12 } };

describe('RelateView', () => {
  it('filters the first question by a choice of the second', async () => {
    const { requests, on } = stubApi();
    on('GET /api/polls/relate/:a/:b/', { body: { first, second, association: null, privacy, choices } }, pair);
    on(
      'POST /api/polls/relate/:a/:b/',
      {
        body: {
          question: {
            ...first,
            result: {
              count: 40,
              answers: [
                { key: 1, percent: 25 },
                { key: 2, percent: 75 },
              ],
            },
          },
          overall: first.result!,
          comparison: {
            rows: [
              { key: 1, label: 'Tea', percent: 25, overall_percent: 50, margin: 21.4, significant: false },
              { key: 2, label: 'Coffee', percent: 75, overall_percent: 50, margin: 21.4, significant: false },
            ],
            average: null,
          },
          association,
          privacy,
        },
      },
      pair,
    );
    const onSwap = vi.fn();
    const { user } = renderScreen(<RelateView firstId="3" secondId="12" onSwap={onSwap} onBack={vi.fn()} />);
    expect(await screen.findByRole('heading', { name: 'Relate QID003 and QID012' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Dogs' }));
    expect(await screen.findByText('QID003 votes filtered for "Dogs" voters')).toBeInTheDocument();
    expect(screen.getAllByText('vs 50% everyone')).toHaveLength(2);
    expect(screen.getByText('75%')).toBeInTheDocument();
    expect(screen.getByText('Significant at the 95% level')).toBeInTheDocument();
    expect(screen.getByText('Dog people lean towards coffee.')).toBeInTheDocument();
    expect(screen.getByText('About 40 votes match')).toBeInTheDocument();
    expect(screen.getAllByText('±21')).toHaveLength(2);
    expect(
      screen.getByText(/about 120 people answered both · tested allowing for the privacy noise/),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dogs' })).toHaveAttribute('aria-pressed', 'true');
    expect(requests.at(-1)?.body).toEqual({ choice: 2 });

    await user.click(screen.getByRole('button', { name: 'Change' }));
    expect(onSwap).toHaveBeenCalledOnce();
  });

  it('says when the pair cannot be related because a question’s privacy budget is spent', async () => {
    stubApi().on(
      'GET /api/polls/relate/:a/:b/',
      { body: { first, second, association: null, privacy: null, choices: [] } },
      pair,
    );
    renderScreen(<RelateView firstId="3" secondId="12" onSwap={vi.fn()} onBack={vi.fn()} />);
    expect(
      await screen.findByText(
        `These two questions cannot be related: each question can be related to at most ${RELATE_PAIRS_PER_QUESTION} others`,
        { exact: false },
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Every choice side by side' })).toBeNull();
  });

  it('shows the first question among the voters of every choice of the second, side by side', async () => {
    stubApi().on('GET /api/polls/relate/:a/:b/', { body: { first, second, association, privacy, choices } }, pair);
    renderScreen(<RelateView firstId="3" secondId="12" onSwap={vi.fn()} onBack={vi.fn()} />);
    const sideBySide = await screen.findByRole('region', { name: 'Every choice side by side' });
    expect(
      within(sideBySide).getByText('How the voters of each choice of QID012 answered QID003.'),
    ).toBeInTheDocument();
    const cats = within(sideBySide).getByText('Cats').closest('li')!;
    const dogs = within(sideBySide).getByText('Dogs').closest('li')!;
    expect(within(cats).getByText('about 310 voters ± 62')).toBeInTheDocument();
    expect(within(cats).getByRole('img', { name: 'Tea: 58% ± 9 points' })).toBeInTheDocument();
    expect(within(cats).getByRole('img', { name: 'Coffee: 42% ± 9 points' })).toBeInTheDocument();
    expect(within(cats).getByText('58% ±9')).toBeInTheDocument();
    expect(within(dogs).getByText('Too few to show')).toBeInTheDocument();
    expect(within(dogs).queryByRole('img')).toBeNull();
    // Picking a choice stays with the buttons above; the charts are not buttons.
    expect(within(sideBySide).queryByRole('button')).toBeNull();
    expect(screen.getByText('Dog people lean towards coffee.')).toBeInTheDocument();
  });

  it('shows a number question’s average among each choice’s voters on its range', async () => {
    const books = answered(
      makeQuestion({ id: 3, qid: 3, type: 'N', title: 'How many books did you read?', choices: { min: 0, max: 200 } }),
      12,
      [],
    );
    const averages = [
      { key: 1, ...makeReleasedGroup({ label: 'Cats', average: { value: 14.5, margin: 3.25 } }) },
      { key: 2, ...makeReleasedGroup({ label: 'Dogs', average: { value: 9, margin: 2.5 } }) },
    ];
    stubApi().on(
      'GET /api/polls/relate/:a/:b/',
      { body: { first: books, second, association: null, privacy, choices: averages } },
      pair,
    );
    renderScreen(<RelateView firstId="3" secondId="12" onSwap={vi.fn()} onBack={vi.fn()} />);
    const sideBySide = await screen.findByRole('region', { name: 'Every choice side by side' });
    expect(
      within(sideBySide).getByRole('img', { name: 'Average 14.50 ± 3.25 on a scale of 0 to 200' }),
    ).toBeInTheDocument();
    expect(
      within(sideBySide).getByRole('img', { name: 'Average 9.00 ± 2.50 on a scale of 0 to 200' }),
    ).toBeInTheDocument();
  });
});
