import type { MyReport } from '@pollscope/contract';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { makeMyReport } from '../../../testing/factories';
import { renderScreen } from '../../../testing/render';
import { MyReports } from './my-reports';

const page = (reports: MyReport[], next: string | null = null) => ({ body: { reports, next } });

describe('MyReports', () => {
  it('tells the reporter what came of each report, newest first as the server sends them', async () => {
    stubApi().on(
      'GET /api/reports/',
      page([
        makeMyReport({ id: 3, target: 'user', target_id: 21, reason: 'harassment', outcome: 'open' }),
        makeMyReport({ id: 2, outcome: 'action_taken' }),
        makeMyReport({
          id: 1,
          target_id: 4,
          reason: 'misinformation',
          outcome: 'dismissed',
          reviewed_at: '2026-05-06T09:00:00.000Z',
        }),
      ]),
    );
    renderScreen(<MyReports />);
    const list = await screen.findByRole('list', { name: 'Your reports' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.querySelector('.outcome span')?.textContent)).toEqual([
      'Open',
      'Action taken',
      'Dismissed',
    ]);
    expect(within(rows[0]).getByRole('link', { name: 'UID021' })).toHaveAttribute('href', '/user/21');
    expect(within(rows[0]).getByRole('link', { name: 'Harassment or bullying' })).toHaveAttribute(
      'href',
      '/rules#harassment',
    );
    expect(within(rows[1]).getByRole('link', { name: 'QID007' })).toHaveAttribute('href', '/question/7');
    // A dismissed report says when it was reviewed, and that the question stays and is not the reporter's to report again.
    expect(
      within(rows[2]).getByText(
        ': A moderator reviewed it and found no rule broken. It stays up, and you cannot report it again.',
      ),
    ).toBeInTheDocument();
    expect(rows[2].querySelector('.my-report__meta')).toHaveTextContent(/Reviewed 6 May 2026$/);
    expect(rows[0].querySelector('.my-report__meta')).not.toHaveTextContent('Reviewed');
  });

  it('says so when there is nothing yet', async () => {
    stubApi().on('GET /api/reports/', page([]));
    renderScreen(<MyReports />);
    expect(await screen.findByText('You have not reported anything')).toBeInTheDocument();
  });
});
