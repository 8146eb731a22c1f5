import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi, type StubReply } from '../../../testing/api-stub';
import {
  answered,
  makeQuestion,
  makeReleasedGroup,
  makeSplitGroup,
  makeSplits,
  tooFewGroup,
} from '../../../testing/factories';
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
/** Tea and Coffee among a group, each with its margin in points. */
const teaOrCoffee = (tea: number, margin: number) => [
  { key: 1, label: 'Tea', percent: tea, margin },
  { key: 2, label: 'Coffee', percent: 100 - tea, margin },
];
const splits = makeSplits({
  gender: [
    makeSplitGroup(
      { gender: 'F' },
      makeReleasedGroup({ label: 'Female', count: 512, count_sd: 36.4, rows: teaOrCoffee(62, 5.2) }),
    ),
    makeSplitGroup(
      { gender: 'M' },
      makeReleasedGroup({ label: 'Male', count: 488, count_sd: 36.4, rows: teaOrCoffee(31, 4.8) }),
    ),
  ],
  age: [
    makeSplitGroup({ max_age: 17 }, tooFewGroup('Under 18')),
    makeSplitGroup(
      { min_age: 18, max_age: 24 },
      makeReleasedGroup({ label: '18–24', count: 140, rows: teaOrCoffee(45, 9.7) }),
    ),
    makeSplitGroup(
      { min_age: 25, max_age: 34 },
      makeReleasedGroup({ label: '25–34', count: 260, rows: teaOrCoffee(52, 7.1) }),
    ),
    makeSplitGroup({ min_age: 65 }, makeReleasedGroup({ label: '65 and over', count: 90, rows: teaOrCoffee(97, 8.6) })),
  ],
  // In the order of their names; the screen lists the largest first. A real breakdown offers each as a filter too.
  country: [
    makeSplitGroup({ country: 56 }, tooFewGroup('Belgium')),
    makeSplitGroup({ country: 250 }, makeReleasedGroup({ label: 'France', count: 360, rows: teaOrCoffee(41, 8) })),
    makeSplitGroup({ country: 276 }, makeReleasedGroup({ label: 'Germany', count: 240, rows: teaOrCoffee(44, 8) })),
    makeSplitGroup({ country: 372 }, makeReleasedGroup({ label: 'Ireland', count: 400, rows: teaOrCoffee(40, 8) })),
    makeSplitGroup({ country: 380 }, makeReleasedGroup({ label: 'Italy', count: 280, rows: teaOrCoffee(43, 8) })),
    makeSplitGroup({ country: 620 }, makeReleasedGroup({ label: 'Portugal', count: 160, rows: teaOrCoffee(45, 8) })),
    makeSplitGroup({ country: 724 }, makeReleasedGroup({ label: 'Spain', count: 320, rows: teaOrCoffee(42, 8) })),
  ],
});
/** The list of one attribute's groups, under its heading. */
const split = async (title: string) =>
  (await screen.findByRole('heading', { name: title, level: 3 })).closest('section')!;
const exact = { exact: true, counted: 10, count_sd: 0 };
const noisy = { exact: false, counted: 9, count_sd: 36.4 };

const countries = [
  { id: 250, code: 'FR', name: 'France' },
  { id: 372, code: 'IE', name: 'Ireland' },
  { id: 826, code: 'GB', name: 'United Kingdom' },
];

/** The breakdown of question 7, whose filtered results the API answers with `filtered`. */
function stubBreakdown(filtered: StubReply<'POST /api/polls/breakdown/:id/'>) {
  const server = stubApi();
  const seven = { params: { id: 7 } };
  server.on('GET /api/polls/breakdown/:id/', { body: { question, filters, splits } }, seven);
  server.on('POST /api/polls/breakdown/:id/', filtered, seven);
  return server;
}

const refused: StubReply<'POST /api/polls/breakdown/:id/'> = { status: 500, body: { message: 'Nope' } };

describe('BreakdownView', () => {
  it('shows the padded QID and the filters the voters allow', async () => {
    stubBreakdown(refused);
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
    stubBreakdown(refused);
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
    const { requests } = stubBreakdown({
      body: {
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
      },
    });
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
    stubBreakdown({
      body: { question, overall: question.result!, comparison: null, ages: { min: 25, max: 44 }, privacy: exact },
    });
    const { user } = renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Filter' }));
    expect(await screen.findByText(/Counting ages 25–44/)).toBeInTheDocument();
  });

  it('says when too few people match', async () => {
    stubBreakdown({
      body: {
        question: { ...question, result: { count: 0, answers: [], suppressed: true } },
        overall: question.result!,
        comparison: null,
        privacy: noisy,
      },
    });
    const { user } = renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Filter' }));
    expect(await screen.findByText(/Too few people match to show results/)).toBeInTheDocument();
  });

  it('says that a group’s counts carry noise, how much, and which votes they count', async () => {
    stubBreakdown({
      body: {
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
      },
    });
    const { user } = renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);
    await user.click(await screen.findByLabelText('Female'));
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('About 40 votes match')).toBeInTheDocument();
    expect(screen.getByText(/counting both sampling and the privacy noise/)).toBeInTheDocument();
    expect(
      screen.getByText(/random noise \(about ±36 voters\), so that nobody’s answer can be worked out/),
    ).toBeInTheDocument();
    // The question has 10 votes; the release counts the first 9.
    expect(screen.getByText(/Counting the first 9 of 10 votes/)).toBeInTheDocument();
    expect(screen.getAllByText('±31')).toHaveLength(2);
  });

  it('says, of a group whose number of voters is public and exact, that its answers carry noise', async () => {
    stubBreakdown({
      body: {
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
            { key: 1, label: 'Tea', percent: 30, overall_percent: 40, margin: 24.6, significant: false },
            { key: 2, label: 'Coffee', percent: 70, overall_percent: 60, margin: 24.6, significant: false },
          ],
          average: null,
        },
        privacy: { exact: false, counted: 9, count_sd: 0 },
      },
    });
    const { user } = renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);
    await user.click(await screen.findByLabelText('Female'));
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(await screen.findByText('40 votes match')).toBeInTheDocument();
    expect(screen.getByText(/counting both sampling and the privacy noise/)).toBeInTheDocument();
    expect(
      screen.getByText(/this group’s number of voters is exact; its answers are counted with a little random noise/),
    ).toBeInTheDocument();
  });

  it('says "Something wrong!" when the breakdown cannot load or filter', async () => {
    stubBreakdown(refused);
    const { user } = renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);
    await user.click(await screen.findByRole('button', { name: 'Filter' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Something wrong!');

    stubApi().on('GET /api/polls/breakdown/:id/', { status: 404, body: { message: 'No such question' } });
    renderScreen(<BreakdownView questionId="8" countries={countries} onBack={vi.fn()} />);
    expect(await screen.findByText('Something wrong!', { selector: '.banner--error' })).toBeInTheDocument();
  });
  it('shows every gender, age band and country at once, with margins and noisy counts', async () => {
    stubBreakdown(refused);
    const { user } = renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);

    const gender = await split('By gender');
    expect(within(gender).getByRole('button', { name: 'Female about 512 voters ± 36' })).toBeInTheDocument();
    expect(within(gender).getByRole('img', { name: 'Tea: 62% ± 5 points' })).toBeInTheDocument();
    expect(within(gender).getByRole('img', { name: 'Coffee: 38% ± 5 points' })).toBeInTheDocument();
    expect(within(gender).getByText('62% ±5')).toBeInTheDocument();
    expect(within(gender).getByRole('button', { name: 'Male about 488 voters ± 36' })).toBeInTheDocument();
    expect(within(gender).getByRole('img', { name: 'Tea: 31% ± 5 points' })).toBeInTheDocument();

    // A band too small to show says so in place of its bars, and offers nothing to pick.
    const age = await split('By age');
    expect(within(age).getByText('Under 18')).toBeInTheDocument();
    expect(within(age).getByText('Too few to show')).toBeInTheDocument();
    expect(within(age).queryByRole('button', { name: /Under 18/ })).toBeNull();
    expect(
      within(age)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['18–24 about 140 voters ± 36', '25–34 about 260 voters ± 36', '65 and over about 90 voters ± 36']);
    expect(within(age).getByRole('img', { name: 'Tea: 97% ± 9 points' })).toBeInTheDocument();

    // The five largest countries, then the rest on asking.
    const country = await split('By country');
    const countryGroups = () =>
      within(country)
        .queryAllByRole('button', { name: /voters/ })
        .map((button) => button.textContent?.split(' ')[0]);
    expect(countryGroups()).toEqual(['Ireland', 'France', 'Spain', 'Italy', 'Germany']);
    expect(within(country).queryByText('Belgium')).toBeNull();
    await user.click(within(country).getByRole('button', { name: 'Show all 7 countries' }));
    expect(countryGroups()).toEqual(['Ireland', 'France', 'Spain', 'Italy', 'Germany', 'Portugal']);
    expect(within(country).getByText('Belgium')).toBeInTheDocument();
    expect(within(country).getByText('Too few to show')).toBeInTheDocument();
    expect(within(country).getByRole('button', { name: 'Show fewer' })).toHaveAttribute('aria-expanded', 'true');

    // Only the filter form's field is labelled Country: its tests find it by that name.
    expect(screen.getAllByLabelText(/country/i)).toHaveLength(1);
    expect(
      screen.getByText(
        /Voter counts carry privacy noise \(± one standard deviation\); each bar’s line spans its 95% margin of error/,
      ),
    ).toBeInTheDocument();
  });

  it('shows a group’s result when it is picked, with its filter in the form', async () => {
    const { requests } = stubBreakdown({
      body: {
        question: answered(question, 2, [
          { key: 1, percent: 62 },
          { key: 2, percent: 38 },
        ]),
        overall: question.result!,
        comparison: null,
        privacy: noisy,
      },
    });
    const { user } = renderScreen(<BreakdownView questionId="7" countries={countries} onBack={vi.fn()} />);

    const women = await screen.findByRole('button', { name: /^Female/ });
    await user.click(women);
    expect(await screen.findByRole('region', { name: 'Filtered result' })).toHaveTextContent('About 11 votes match');
    expect(requests.at(-1)).toMatchObject({ method: 'POST', path: '/api/polls/breakdown/7/', body: { gender: 'F' } });
    expect(requests.at(-1)?.body).toEqual({ gender: 'F' });
    expect(screen.getByLabelText('Female')).toBeChecked();
    expect(women).toHaveAttribute('aria-current', 'true');

    await user.click(screen.getByRole('button', { name: /^25–34/ }));
    expect(requests.at(-1)?.body).toEqual({ min_age: 25, max_age: 34 });
    expect(screen.getByLabelText('Any')).toBeChecked();
    expect(screen.getByRole('slider', { name: 'Minimum age' })).toHaveValue('25');
    expect(screen.getByRole('slider', { name: 'Maximum age' })).toHaveValue('34');
    expect(screen.getByRole('button', { name: /^Female/ })).not.toHaveAttribute('aria-current');

    await user.click(screen.getByRole('button', { name: /^France/ }));
    expect(requests.at(-1)?.body).toEqual({ country: 250 });
    expect(screen.getByLabelText('Country')).toHaveValue('250');

    // The Filter button then sends what the form shows, and no group is marked as shown.
    await user.click(screen.getByRole('button', { name: 'Filter' }));
    expect(requests.at(-1)?.body).toEqual({ min_age: 0, max_age: 999, country: 250 });
    expect(screen.getByRole('button', { name: /^France/ })).not.toHaveAttribute('aria-current');
  });

  it('shows a rating’s average per group on its scale, with its margin', async () => {
    const rating = answered(
      makeQuestion({ id: 9, qid: 9, type: 'RS', title: 'How much do you like tea?', choices: [] }),
      7,
      [],
    );
    stubApi().on(
      'GET /api/polls/breakdown/:id/',
      {
        body: {
          question: rating,
          filters,
          splits: makeSplits({
            gender: [
              makeSplitGroup(
                { gender: 'F' },
                makeReleasedGroup({ label: 'Female', rows: [], average: { value: 6.42, margin: 0.31 } }),
              ),
              makeSplitGroup({ gender: 'M' }, tooFewGroup('Male')),
            ],
          }),
        },
      },
      { params: { id: 9 } },
    );
    renderScreen(<BreakdownView questionId="9" countries={countries} onBack={vi.fn()} />);
    const gender = await split('By gender');
    expect(within(gender).getByRole('img', { name: 'Average 6.42 ± 0.31 on a scale of 1 to 10' })).toBeInTheDocument();
    expect(within(gender).getByText('6.42 ±0.31', { exact: false })).toHaveTextContent('6.42 ±0.31 average');
    expect(within(gender).getByText('Too few to show')).toBeInTheDocument();
    expect(within(await split('By age')).getByText('No voters to split yet.')).toBeInTheDocument();
  });
});
