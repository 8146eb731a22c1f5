import { api, APP_FILES_TEMPLATE_ID, FIRST_SCREEN_DATA_ID, pageQuerySchema } from '@pollscope/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sessionToken } from '../../plugins/app/auth.js';
import type { Reader } from '../../views/pipeline.js';
import type { ViewerState } from '../../views/viewer-states.js';
import { getAccount } from '../auth/index.js';
import { feedJson } from '../polls/index.js';
import { categoryList } from '../reference/index.js';

/** The module the web app's build writes for the server (apps/web/src/app/first-screen-on-server.tsx). */
interface FirstScreenRenderer {
  /** The GETs whose answers the feed is rendered from, as the app asks for them. */
  firstScreenData: readonly string[];
  /** The style sheets the rendered feed needs beyond the page's own. */
  firstScreenStyles: readonly string[];
  renderFirstScreen(answers: Record<string, unknown>, locale: string): Promise<string>;
}

/** Where the build puts the renderer, in its folder. */
const RENDERER_FILE = 'server/first-screen.js';

/** What goes into the entry page for a signed-in person's feed: the answers, the style sheets and the rendered feed. */
export interface FirstScreen {
  answers: Record<string, unknown>;
  /** The contents of every style sheet the page needs, by its address: the page's own and the feed's. */
  styleSheets: ReadonlyMap<string, string>;
  html: string;
}

/** A style sheet linked from the page, as the build writes the link. */
const STYLE_SHEET_LINK = /<link rel="stylesheet"[^>]* href="(\/assets\/[^"]+\.css)">/g;

/** The app's own files in the page: its entry script, and the modules and styles preloaded beside it. */
const APP_FILE_TAG = /<script type="module"[^>]*><\/script>|<link rel="(?:modulepreload|preload)"[^>]*>/g;

/**
 * Every style sheet the rendered feed needs, read once: those the page links and the feed's own,
 * written into the page so that it shows at once instead of waiting for them among the page's
 * other files on the browser's few connections.
 */
async function readStyleSheets(distDir: string, rendererStyles: readonly string[]): Promise<Map<string, string>> {
  const page = await fs.promises.readFile(path.join(distDir, 'index.html'), 'utf8');
  const hrefs = [...[...page.matchAll(STYLE_SHEET_LINK)].map(([, href]) => href), ...rendererStyles];
  return new Map(
    await Promise.all(
      hrefs.map(async (href) => [href, await fs.promises.readFile(path.join(distDir, href), 'utf8')] as const),
    ),
  );
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
export function firstScreenReader(app: FastifyInstance, distDir: string) {
  const file = path.join(distDir, RENDERER_FILE);
  // Loaded at the first page that needs it rather than at start: tests and commands start many servers that serve none.
  let renderer: Promise<{ render: FirstScreenRenderer; styleSheets: Map<string, string> } | null> | undefined;
  const loadRenderer = () =>
    (renderer ??= fs.existsSync(file)
      ? (import(pathToFileURL(file).href) as Promise<FirstScreenRenderer>).then(async (render) => ({
          render,
          styleSheets: await readStyleSheets(distDir, render.firstScreenStyles),
        }))
      : Promise.resolve(null));

  return async (request: FastifyRequest, locale: string): Promise<FirstScreen | null> => {
    if (!sessionToken(request.headers.cookie)) return null;
    const loaded = await loadRenderer();
    if (!loaded) return null;
    const reader = await readerOfCookie(app, request);
    if (!reader) return null;
    const { render: first, styleSheets } = loaded;
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
      return { answers, styleSheets, html: await first.renderFirstScreen(answers, locale) };
    } catch (error) {
      request.log.error({ err: error }, 'the first screen could not be rendered; the page starts empty');
      return null;
    }
  };
}

/**
 * The entry page with `first` in it: the answers before the page's first script, which starts the
 * app with them, the style sheets written in where the page linked them, and the feed. The app's
 * own files move into a template the first script loads them from once the feed is on screen:
 * downloaded beside it, they held its first frame back (docs/performance.md, The first card).
 */
export function withFirstScreen(html: string, { answers, styleSheets, html: rendered }: FirstScreen): string {
  // As JSON in a script element, where only "<" could end it early.
  const data = JSON.stringify(answers).replace(/</g, '\\u003c');
  const linked = new Set<string>();
  const appFiles: string[] = [];
  const page = html
    .replace(STYLE_SHEET_LINK, (_link, href: string) => {
      linked.add(href);
      return `<style>${styleSheets.get(href) ?? ''}</style>`;
    })
    .replace(APP_FILE_TAG, (tag) => {
      appFiles.push(tag);
      return '';
    });
  const feedStyles = [...styleSheets].flatMap(([href, css]) => (linked.has(href) ? [] : [`<style>${css}</style>`]));
  return page
    .replace(
      /<meta charset="[^"]*" ?\/?>/i,
      (charset) => `${charset}<script type="application/json" id="${FIRST_SCREEN_DATA_ID}">${data}</script>`,
    )
    .replace('</head>', () => `${feedStyles.join('')}</head>`)
    .replace(
      '<div id="root"></div>',
      // Inert until the app replaces it: a vote or a tap on it before then would do nothing, or reload the page.
      () =>
        `<div id="root"><div inert style="display:contents">${rendered}</div></div><template id="${APP_FILES_TEMPLATE_ID}">${appFiles.join('')}</template>`,
    );
}
