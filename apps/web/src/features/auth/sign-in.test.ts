import { afterEach, describe, expect, it, vi } from 'vitest';
import { clearToken, getToken } from '../../lib/auth-token';
import { signIn } from './sign-in';

describe('signing in', () => {
  const assign = vi.fn();
  const original = window.location;
  afterEach(() => Object.defineProperty(window, 'location', { value: original, configurable: true }));

  function signInTowards(destination: string | null) {
    assign.mockClear();
    Object.defineProperty(window, 'location', { value: { ...original, assign }, configurable: true });
    signIn('t0k3n', destination);
    return assign.mock.calls.map(([to]) => String(to));
  }

  it('goes on to a path of this site', () => {
    expect(signInTowards('/question/5')).toEqual(['/question/5']);
    expect(getToken()).toBe('t0k3n');
  });

  it('keeps the token in the session cookie too, which the browser sends with the page, until signing out', () => {
    signInTowards(null);
    expect(document.cookie).toContain('pollscope_session=t0k3n');
    clearToken();
    expect(document.cookie).not.toContain('pollscope_session');
  });

  it('goes home instead of to another site', () => {
    for (const elsewhere of [
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      'https://evil.example',
      'javascript:alert(1)',
      null,
    ]) {
      expect(signInTowards(elsewhere)).toEqual(['/']);
    }
  });
});
