import { prerender } from 'react-dom/static';
import { StaticRouter, useRoutes } from 'react-router';
import { homePath } from '../config/paths';
import { loadMessages } from '../i18n/catalogs';
import { InitialLocale } from '../i18n/i18n-provider';
import { defaultLocale, isLocale } from '../i18n/locales';
import { serverRenderedData } from './first-screen';
import { RenderedAnswers } from './provider';
import { Component as Frame } from './root';
import { Component as Feed } from './routes/home';

/** What the server reads for the first screen, as the app would ask for it: the answers' bodies go into the page. */
export const firstScreenData: readonly string[] = serverRenderedData;

function FeedInFrame() {
  return useRoutes([{ element: <Frame />, children: [{ index: true, element: <Feed /> }] }]);
}

/**
 * A signed-in person's feed as the app shows it at first, with the answers the server read for it
 * (`firstScreenData`, by path): the server sends it in the page, and the app, once it has run,
 * replaces it with its own rendering of the same data (src/main.tsx). Only the feed is rendered
 * here; other screens start in the browser. It is in `locale` (one of i18n/locales.ts, English by
 * default or for any other value), whose catalog it waits for.
 */
export async function renderFirstScreen(
  answers: Record<string, unknown>,
  locale: string = defaultLocale,
): Promise<string> {
  const language = isLocale(locale) ? locale : defaultLocale;
  // Here before the first render, which runs no effect that could load it.
  await loadMessages(language);
  let failure: unknown;
  // Rendered whole before any of it is sent: a page of finished markup, with no script to put parts in place later.
  const { prelude } = await prerender(
    <InitialLocale value={() => language}>
      <RenderedAnswers value={() => answers}>
        <StaticRouter location={homePath}>
          <FeedInFrame />
        </StaticRouter>
      </RenderedAnswers>
    </InitialLocale>,
    {
      // However large, a part is sent in its place rather than after the rest, with a script to move it there.
      progressiveChunkSize: Number.POSITIVE_INFINITY,
      onError: (error) => {
        failure ??= error;
      },
    },
  );
  const html = await new Response(prelude).text();
  // A part that failed would be left to the browser, behind a loading indicator: the page without it does better.
  if (failure !== undefined) throw failure;
  return html;
}
