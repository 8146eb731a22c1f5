import { createContext, use, useLayoutEffect, useState, useTransition, type ReactNode } from 'react';
import { Router, type Location, type UNSAFE_createBrowserHistory } from 'react-router';

/** The history the app navigates through: the browser's, or a test's in memory (same interface). */
export type AppHistory = ReturnType<typeof UNSAFE_createBrowserHistory>;

/** Whether a navigation is under way: the next screen's code or data is still on its way. */
const NavigationPending = createContext(false);

export function useNavigationPending(): boolean {
  return use(NavigationPending);
}

/**
 * Who else follows the app's navigations (the service worker's updates): React Router's history takes one listener,
 * the router's.
 */
const navigationListeners = new Set<(location: Location) => void>();

export function onNavigation(listener: (location: Location) => void): () => void {
  navigationListeners.add(listener);
  return () => navigationListeners.delete(listener);
}

interface HistoryRouterProps {
  history: AppHistory;
  /** Told of every location the app goes to, the first included, before its screen renders. */
  onNavigate: (location: Location) => void;
  children: ReactNode;
}

/**
 * React Router's declarative router on `history`, with each navigation rendered as a transition:
 * the screen on show stays, with the frame's progress bar, until the next one can be shown whole.
 * The data router did the same with its loaders; this keeps its lighter code out of the first
 * load (docs/performance.md).
 */
export function HistoryRouter({ history, onNavigate, children }: HistoryRouterProps) {
  const [state, setState] = useState(() => {
    onNavigate(history.location);
    return { action: history.action, location: history.location };
  });
  const [pending, startTransition] = useTransition();
  useLayoutEffect(
    () =>
      history.listen(({ action, location }) => {
        onNavigate(location);
        navigationListeners.forEach((listener) => listener(location));
        startTransition(() => setState({ action, location }));
      }),
    [history, onNavigate],
  );
  return (
    <NavigationPending value={pending}>
      <Router location={state.location} navigationType={state.action} navigator={history}>
        {children}
      </Router>
    </NavigationPending>
  );
}
