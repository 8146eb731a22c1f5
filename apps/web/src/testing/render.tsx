import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router';
import { SWRConfig } from 'swr';
import { I18nProvider, InitialLocale } from '../i18n/i18n-provider';
import type { Locale } from '../i18n/locales';
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
  /** The language the app starts in: English unless a test says otherwise. */
  locale?: Locale;
}

/** Renders a screen inside a memory router, the app's language and an empty data cache, as the app would. */
export function renderScreen(
  element: ReactElement,
  { at = '/', path = '*', routes = [], locale = 'en' }: RenderOptions = {},
) {
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
    <InitialLocale value={() => locale}>
      <I18nProvider>
        <SWRConfig value={{ ...swrDefaults, provider: () => new Map(), dedupingInterval: 0 }}>
          <RouterProvider router={router} />
        </SWRConfig>
      </I18nProvider>
    </InitialLocale>,
  );
  return { user, router, ...view };
}
