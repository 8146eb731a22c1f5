import type { BreakdownResult } from '@pollscope/contract';
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi, type StubRequest } from '../../../testing/api-stub';
import { answered, makeQuestion } from '../../../testing/factories';
import { renderScreen } from '../../../testing/render';
import { BreakdownView } from './breakdown-view';

const question = answered(makeQuestion({ id: 7, qid: 7 }), 2, [
  { key: 1, percent: 40 },
  { key: 2, percent: 60 },
]);
const filters = {
  gender: [
    { value: 'F' as const, label: 'Female' },
    { value: 'M' as const, label: 'Male' },
  ],
  age: { min: 18, max: 70 },
  country: [372, 250],
};
const exact = { exact: true, counted: 10, count_sd: 0 };
const noisy = { exact: false, counted: 9, count_sd: 36.4 };

const countries = [
  { id: 250, name: 'France' },
  { id: 372, name: 'Ireland' },
  { id: 826, name: 'United Kingdom' },
];

function stubBreakdown(filtered: (request: StubRequest) => BreakdownResult | { status: number }) {
  return stubApi((request) => {
    if (request.path !== '/api/polls/breakdown/7/') return undefined;
    if (request.method === 'GET') return { body: { question, filters } };
    const reply = filtered(request);
    return 'status' in reply ? { status: reply.status, body: { message: 'Nope' } } : { body: reply };
  });
}

describe('BreakdownView', () => {
  it('shows the padded QID and the filters the voters allow', async () => {
    stubBreakdown(() => ({ status: 500 }));
    renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);
    expect(await screen.findByText('QID007')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Tea or coffee?' })).toBeInTheDocument();
    expect(screen.getByLabelText('Any')).toBeChecked();
    expect(screen.getByLabelText('Female')).toBeInTheDocument();
    const options = screen.getAllByRole('option').map((option) => [option.getAttribute('value'), option.textContent]);
    expect(options).toEqual([
      ['', 'Any country'],
      ['250', 'France'],
      ['372', 'Ireland'],
    ]);
  });

  it('keeps the lower age at least one below the upper age', async () => {
    stubBreakdown(() => ({ status: 500 }));
    renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);
    const lower = await screen.findByRole('slider', { name: 'Minimum age' });
    const upper = screen.getByRole('slider', { name: 'Maximum age' });
    fireEvent.change(upper, { target: { value: '30' } });
    fireEvent.change(lower, { target: { value: '45' } });
    expect(lower).toHaveValue('29');
    fireEvent.change(upper, { target: { value: '20' } });
    expect(upper).toHaveValue('30');
  });

  it('sends no age limit for an untouched range and shows the comparison', async () => {
    const { requests } = stubBreakdown(() => ({
      question: answered(question, 2, [
        { key: 1, percent: 20 },
        { key: 2, percent: 80 },
      ]),
      overall: question.result!,
      comparison: {
        rows: [
          { key: 1, label: 'Tea', percent: 20, overall_percent: 40, margin: 9.6, significant: true },
          { key: 2, label: 'Coffee', percent: 80, overall_percent: 60, margin: 9.6, significant: true },
        ],
        average: null,
      },
      privacy: exact,
    }));
    const { user } = renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);
    await user.click(await screen.findByLabelText('Male'));
    await user.selectOptions(screen.getByLabelText('Country'), 'Ireland');
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('vs 40% everyone')).toBeInTheDocument();
    expect(screen.getAllByText('±10')).toHaveLength(2);
    expect(screen.getAllByText('Significantly different from everyone')).toHaveLength(2);
    expect(requests.at(-1)?.body).toEqual({ min_age: 0, max_age: 999, country: 372, gender: 'M' });
  });

  it('tells which ages were counted when the server widened the range to whole bands', async () => {
    stubBreakdown(() => ({ question, overall: question.result!, comparison: null, ages: { min: 25, max: 44 }, privacy: exact }));
    const { user } = renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Filter' }));
    expect(await screen.findByText(/Counting ages 25–44/)).toBeInTheDocument();
  });

  it('says when too few people match', async () => {
    stubBreakdown(() => ({ question: { ...question, result: { count: 0, answers: [], suppressed: true } }, overall: question.result!, comparison: null, privacy: noisy }));
    const { user } = renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Filter' }));
    expect(await screen.findByText(/Too few people match to show results/)).toBeInTheDocument();
  });

  it('says that a group’s counts carry noise, how much, and which votes they count', async () => {
    stubBreakdown(() => ({
      question: {
        ...question,
        result: {
          count: 40,
          answers: [
            { key: 1, percent: 30 },
            { key: 2, percent: 70 },
          ],
        },
      },
      overall: { ...question.result!, count: 9 },
      comparison: {
        rows: [
          { key: 1, label: 'Tea', percent: 30, overall_percent: 40, margin: 31.2, significant: false },
          { key: 2, label: 'Coffee', percent: 70, overall_percent: 60, margin: 31.2, significant: false },
        ],
        average: null,
      },
      privacy: noisy,
    }));
    const { user } = renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);
    await user.click(await screen.findByLabelText('Female'));
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('About 40 votes match')).toBeInTheDocument();
    expect(screen.getByText(/counting both sampling and the privacy noise/)).toBeInTheDocument();
    expect(screen.getByText(/random noise \(about ±36 voters\), so that nobody’s answer can be worked out/)).toBeInTheDocument();
    // The question has 10 votes; the release counts the first 9.
    expect(screen.getByText(/Counting the first 9 of 10 votes/)).toBeInTheDocument();
    expect(screen.getAllByText('±31')).toHaveLength(2);
  });

  it('says "Something wrong!" when the breakdown cannot load or filter', async () => {
    stubBreakdown(() => ({ status: 500 }));
    const { user } = renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Filter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Something wrong!');

    stubApi(() => ({ status: 404, body: { message: 'No such question' } }));
    renderScreen(<BreakdownView questionId="8" countries={countries} onBack={vi.fn()} />);
    expect(await screen.findByText('Something wrong!', { selector: '.banner--error' })).toBeInTheDocument();
  });
});
