import { act, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { UNSAFE_createMemoryHistory } from 'react-router';
import type { AppHistory } from '../lib/navigation';
import { App } from './router';

/**
 * The app opened at `path` in a test, on a history in memory (the browser's has the same interface), with `wrap`'s
 * providers of the test's own around it. Rendered in an awaited `act`: React retries a screen that suspended while its
 * code loads only for an act that is awaited.
 */
export async function openAppAt(path: string, wrap = (app: ReactNode) => app): Promise<AppHistory> {
  const history = UNSAFE_createMemoryHistory({ initialEntries: [path], v5Compat: true });
  await act(async () => {
    render(wrap(<App history={history} />));
  });
  return history;
}

/**
 * A step of a test that goes to a screen whose code has not loaded yet, in an awaited `act` for the same reason as
 * `openAppAt`.
 */
export async function navigating(step: () => Promise<void>): Promise<void> {
  await act(step);
}
