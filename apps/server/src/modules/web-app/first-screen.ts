import { api, pageQuerySchema } from '@pollscope/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sessionToken } from '../../lib/request-session.js';
import type { Reader } from '../../views/pipeline.js';
import type { ViewerState } from '../../views/viewer-states.js';
import { getAccount } from '../auth/index.js';
import { feedJson } from '../polls/index.js';
import { categoryList } from '../reference/index.js';
import type { FirstScreen, StyleSheets } from './entry-page.js';

/** The module the web app's build writes for the server (apps/web/src/app/first-screen-on-server.tsx). */
interface FirstScreenRenderer {
  /** The GETs whose answers the feed is rendered from, as the app asks for them. */
  firstScreenData: readonly string[];
  renderFirstScreen(answers: Record<string, unknown>, locale: string): Promise<string>;
}

/** Where the build puts the renderer, in its folder. */
const RENDERER_FILE = 'server/first-screen.js';

/** The renderer as the server keeps it, with the contents of the style sheets the feed is shown with. */
interface LoadedRenderer {
  render: FirstScreenRenderer;
  pageStyleSheets: Map<string, string>;
  feedStyleSheets: string[];
}

/**
 * The renderer in `distDir`, with every style sheet the rendered feed needs read once (`styleSheets`): those the page
 * links and the feed's own, written into the page so that it shows at once instead of waiting for them among the
 * page's other files on the browser's few connections. Null where the build has none.
 */
async function loadRenderer(distDir: string, styleSheets: StyleSheets): Promise<LoadedRenderer | null> {
  const file = path.join(distDir, RENDERER_FILE);
  if (!fs.existsSync(file)) return null;
  const render = (await import(pathToFileURL(file).href)) as FirstScreenRenderer;
  const read = (hrefs: readonly string[]) =>
    Promise.all(
      hrefs.map(async (href) => [href, await fs.promises.readFile(path.join(distDir, href), 'utf8')] as const),
    );
  return {
    render,
    pageStyleSheets: new Map(await read(styleSheets.page)),
    feedStyleSheets: (await read(styleSheets.firstScreen)).map(([, css]) => css),
  };
}

/** What the first screen's reads need: the signed-in person's reader, and the app's memory the feed is kept in. */
type FirstScreenRead = (reader: Reader & { viewer: ViewerState }, app: FastifyInstance) => Promise<unknown>;

/**
 * The answers the renderer may ask for, by their path in the API, each read by the function its route calls: the same
 * rules of who sees what, and the same kept feed page, without a round through the server's own HTTP handling.
 */
const FIRST_SCREEN_READS: Readonly<Record<string, FirstScreenRead>> = {
  [api.feed]: async (reader, app) =>
    JSON.parse(String(await feedJson(reader, app.memory, pageQuerySchema.parse({})))) as unknown,
  [api.categories]: (_reader, app) => categoryList(app.db),
  [api.account]: (reader, app) => getAccount(app.db, reader.viewer.userId),
};

/** The signed-in person of the page's session cookie, as the API's routes read for them; null without a session. */
async function readerOfCookie(app: FastifyInstance, request: FastifyRequest) {
  const token = sessionToken(request.headers.cookie);
  const { db, memory, config } = app;
  const session = token ? await memory.sessions.find(token, config.tokenIdleSeconds) : null;
  if (!session) return null;
  const viewer = await memory.viewers.get(db, session.userId, session.stateVersion);
  return { db, cards: memory.cards, moderation: memory.moderation, viewer };
}

/**
 * Renders a signed-in person's feed for the page at `/`, from the session cookie the browser sends
 * with it: the same answers the app would ask for first, read by the functions the API's routes
 * call (so with its rules of who sees what), rendered by the web app's own components. Null when
 * there is no session, the session has ended, or the build has no renderer: the page then starts
 * empty, as for a visitor, and the app takes it from there.
 */
export function firstScreenReader(app: FastifyInstance, distDir: string, styleSheets: StyleSheets) {
  // Loaded at the first page that needs it rather than at start: tests and commands start many servers that serve none.
  let renderer: Promise<LoadedRenderer | null> | undefined;

  return async (request: FastifyRequest, locale: string): Promise<FirstScreen | null> => {
    if (!sessionToken(request.headers.cookie)) return null;
    const loaded = await (renderer ??= loadRenderer(distDir, styleSheets));
    if (!loaded) return null;
    const reader = await readerOfCookie(app, request);
    if (!reader) return null;
    const { render: first, pageStyleSheets, feedStyleSheets } = loaded;
    try {
      const answers = Object.fromEntries(
        await Promise.all(
          first.firstScreenData.map(async (url) => {
            const read = FIRST_SCREEN_READS[url];
            if (!read) throw new Error(`The first screen asks for ${url}, which the server does not read for it`);
            return [url, await read(reader, app)] as const;
          }),
        ),
      );
      return { answers, pageStyleSheets, feedStyleSheets, html: await first.renderFirstScreen(answers, locale) };
    } catch (error) {
      request.log.error({ err: error }, 'the first screen could not be rendered; the page starts empty');
      return null;
    }
  };
}
