import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../../testing/render';
import { SiteStatsView } from './site-stats-view';

const stats = {
  users: 1200,
  questions: 340,
  answers: 98765,
  likes: 4321,
  image: '/api/polls/site-stats/chart.svg?day=2026-11-23',
  answers_per_day: [
    { day: '2026-11-22', answers: 1500 },
    { day: '2026-11-23', answers: 42 },
  ],
};

describe('the site stats', () => {
  it('show the server’s chart with its numbers in a table a screen reader can read', () => {
    renderScreen(<SiteStatsView stats={stats} />);
    expect(
      screen.getByRole('img', { name: 'Chart of answers per day over the last 30 days' }).getAttribute('src'),
    ).toBe(stats.image);
    const perDay = screen.getByRole('table', { name: 'Answers per day' });
    expect(within(perDay).getByRole('row', { name: '22 Nov 2026 1,500' })).toBeDefined();
    expect(within(perDay).getByRole('row', { name: '23 Nov 2026 42' })).toBeDefined();
  });

  it('give the totals as a table', () => {
    renderScreen(<SiteStatsView stats={stats} />);
    expect(
      within(screen.getByRole('table', { name: 'Totals' })).getByRole('row', { name: 'Answers 98,765' }),
    ).toBeDefined();
  });

  it('write the days and numbers as the reader’s language does', async () => {
    renderScreen(<SiteStatsView stats={stats} />, { locale: 'de' });
    const perDay = await screen.findByRole('table', { name: 'Antworten pro Tag' });
    expect(within(perDay).getByRole('row', { name: '22. Nov. 2026 1.500' })).toBeDefined();
    expect(
      within(screen.getByRole('table', { name: 'Gesamt' })).getByRole('row', { name: 'Antworten 98.765' }),
    ).toBeDefined();
  });
});
