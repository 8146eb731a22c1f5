import type { Account, Role } from '@pollscope/contract';
import { screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { useRole } from '../api/get-role';
import { ModerationShield } from './moderation-shield';

const account = (role: Role): Account => ({
  id: 3,
  role,
  first_name: 'Mo',
  birthdate: '1984-01-23',
  country: 620,
  favorite_category: null,
  favorite_topic: null,
  gender: 'F',
});

/** Shows the role the shield reads, so that a test knows when it has arrived. */
function RoleProbe() {
  return <p>Role: {useRole()}</p>;
}

/** The header's shield for a person of `role`, with `open` reported targets waiting. */
function showShield(role: Role, open: number, beside?: ReactNode) {
  const { requests, on } = stubApi();
  on('GET /api/auth/account/', { body: account(role) });
  on('GET /api/moderation/open/', { body: { open } });
  renderScreen(
    <>
      <ModerationShield />
      {beside}
    </>,
  );
  return { requests };
}

describe('ModerationShield', () => {
  it('shows moderators the open reports and leads to the queue', async () => {
    showShield('moderator', 3);
    const shield = await screen.findByRole('link', { name: 'Moderation, 3 open reports' });
    expect(shield).toHaveTextContent('3');
    expect(shield).toHaveAttribute('href', '/moderation');
  });

  it('shows admins "99+" past 99, with the whole count in its name', async () => {
    showShield('admin', 120);
    expect(await screen.findByRole('link', { name: 'Moderation, 120 open reports' })).toHaveTextContent('99+');
  });

  it('shows no count when nothing waits', async () => {
    showShield('moderator', 0);
    expect((await screen.findByRole('link', { name: 'Moderation' })).textContent).toBe('');
  });

  it('shows members nothing, and asks nothing of the queue for them', async () => {
    const { requests } = showShield('member', 0, <RoleProbe />);
    // Once the account (and so the role) is in, the shield has decided.
    await screen.findByText('Role: member');
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(requests.map((request) => request.path)).toEqual(['/api/auth/account/']);
  });
});
