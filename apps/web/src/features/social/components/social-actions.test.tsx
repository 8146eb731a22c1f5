import type { UserStats } from '@pollscope/contract';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../../testing/api-stub';
import { renderScreen } from '../../../testing/render';
import { ProfileHeader } from './profile-header';

const ben: UserStats = {
  id: 4,
  name: 'Ben',
  question: 2,
  answer: 5,
  like: 1,
  blocked: false,
  connected: false,
  birthdate: '1988-02-03',
  livein: 'Ireland',
};

/** The server side of one other person: follow and ban change what the stats report. */
function stubPerson(start: UserStats) {
  let person = { ...start };
  const server = stubApi();
  const them = { params: { user: start.id } };
  server.on('GET /api/polls/stats/:user/', () => ({ body: person }), them);
  // The profile names the country from its code, in the reader's language.
  server.on('GET /api/polls/countries/', { body: [{ id: 372, code: 'IE', name: 'Ireland' }] });
  const connect = (connected: boolean) => () => {
    person = { ...person, connected };
    return { body: { connected } };
  };
  server.on('POST /api/auth/follow/:user/', connect(true), them);
  server.on('POST /api/auth/unfollow/:user/', connect(false), them);
  const block = (blocked: boolean) => () => {
    person = { ...person, blocked, connected: false };
    return { body: { blocked } };
  };
  server.on('POST /api/auth/ban/:user/', block(true), them);
  server.on('POST /api/auth/unban/:user/', block(false), them);
  return server;
}

describe('profile Connect and Block', () => {
  it('shows the profile facts with the padded user id', async () => {
    stubPerson(ben);
    renderScreen(<ProfileHeader userId="4" isSelf={false} />);
    expect(await screen.findByRole('heading', { name: 'Ben' })).toBeInTheDocument();
    expect(screen.getByText('UID004')).toBeInTheDocument();
    expect(screen.getByText('Ireland')).toBeInTheDocument();
  });

  it('says the facts in the reader’s language', async () => {
    stubPerson(ben);
    renderScreen(<ProfileHeader userId="4" isSelf={false} />, { locale: 'de' });
    expect(await screen.findByText('Irland')).toBeInTheDocument();
    expect(screen.getByText('(geboren am 3. Feb. 1988)')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Verbinden' })).toBeInTheDocument();
  });

  it('toggles Connect and Connected, reloading the stats each time', async () => {
    const { requests } = stubPerson(ben);
    const { user } = renderScreen(<ProfileHeader userId="4" isSelf={false} />);
    await user.click(await screen.findByRole('button', { name: 'Connect' }));
    expect(await screen.findByRole('button', { name: 'Connected' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Connected' }));
    expect(await screen.findByRole('button', { name: 'Connect' })).toBeInTheDocument();
    const calls = requests.filter((request) => request.path !== '/api/polls/countries/');
    expect(calls.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /api/polls/stats/4/',
      'POST /api/auth/follow/4/',
      'GET /api/polls/stats/4/',
      'POST /api/auth/unfollow/4/',
      'GET /api/polls/stats/4/',
    ]);
  });

  it('toggles Block and Unblock, hiding Connect while blocked', async () => {
    stubPerson({ ...ben, connected: true });
    const { user } = renderScreen(<ProfileHeader userId="4" isSelf={false} />);
    await user.click(await screen.findByRole('button', { name: 'Block' }));
    expect(await screen.findByRole('button', { name: 'Unblock' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Connect/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Unblock' }));
    expect(await screen.findByRole('button', { name: 'Block' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Connect' })).toBeInTheDocument();
  });

  it('offers neither on the viewer’s own profile', async () => {
    stubPerson(ben);
    renderScreen(<ProfileHeader userId="4" isSelf />);
    await screen.findByRole('heading', { name: 'Ben' });
    expect(screen.queryByRole('button', { name: 'Connect' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Block' })).not.toBeInTheDocument();
  });

  it('says "Please Wait..." while the change is sent', async () => {
    stubPerson(ben);
    const { user } = renderScreen(<ProfileHeader userId="4" isSelf={false} />);
    const connect = await screen.findByRole('button', { name: 'Connect' });
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise(() => {})),
    );
    await user.click(connect);
    expect(screen.getByRole('button', { name: 'Please Wait...' })).toBeDisabled();
  });
});
