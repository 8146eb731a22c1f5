import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { SWRConfig } from 'swr';
import { swrDefaults } from '../lib/swr-config';

/** Shows where the app went, for tests that follow a navigation. */
function CurrentPath() {
  return <p data-testid="location">{useLocation().pathname}</p>;
}

interface RenderOptions {
  /** The URL the screen opens at. */
  at?: string;
  /** The route pattern the element is mounted at. */
  path?: string;
  /** Other screens the test may navigate to. */
  routes?: RouteObject[];
}

/** Renders a screen inside a memory router and an empty data cache, as the app would. */
export function renderScreen(element: ReactElement, { at = '/', path = '*', routes = [] }: RenderOptions = {}) {
  const withLocation = (route: RouteObject): RouteObject => ({
    ...route,
    element: (
      <>
        {route.element}
        <CurrentPath />
      </>
    ),
  });
  const router = createMemoryRouter([...routes, { path, element }].map(withLocation), { initialEntries: [at] });
  const user = userEvent.setup();
  const view = render(
    <SWRConfig value={{ ...swrDefaults, provider: () => new Map(), dedupingInterval: 0 }}>
      <RouterProvider router={router} />
    </SWRConfig>,
  );
  return { user, router, ...view };
}
