import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderScreen } from '../../../testing/render';
import { ConnectionsTable } from './connections-table';

describe('ConnectionsTable', () => {
  it('says "No Connections!" in an empty table', () => {
    renderScreen(<ConnectionsTable connections={[]} />);
    expect(screen.getByRole('cell', { name: 'No Connections!' })).toBeInTheDocument();
    expect(screen.getAllByRole('columnheader').map((header) => header.textContent)).toEqual([
      'Since',
      'Name',
      'User',
      'Asked',
      'Voted',
      'Liked',
    ]);
  });

  it('links the user and the counts that are not zero', () => {
    renderScreen(
      <ConnectionsTable
        connections={[{ id: 9, name: 'Chloe', time: '2026-03-01T08:00:00.000Z', question: 2, answer: 0, like: 5 }]}
      />,
    );
    expect(screen.getByRole('link', { name: 'UID009' })).toHaveAttribute('href', '/user/9');
    expect(screen.getByRole('link', { name: '2' })).toHaveAttribute('href', '/user/9');
    expect(screen.getByRole('link', { name: '5' })).toHaveAttribute('href', '/user/9/likes');
    expect(screen.queryByRole('link', { name: '0' })).not.toBeInTheDocument();
  });
});
