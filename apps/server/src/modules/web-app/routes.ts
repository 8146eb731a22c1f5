import fastifyStatic from '@fastify/static';
import { directionOf, type UiLocale } from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { asksForPseudoLocale } from '../../i18n/locale.js';
import { requestLocale } from '../../views/request-locale.js';
import { escapeHtml } from '../../lib/html.js';
import { LOCALIZED_FILES, serveLocalizedFiles } from './app-shell-files.js';
import { message } from '../../i18n/messages.js';
import { firstScreenReader, withFirstScreen } from './first-screen.js';
import { mayBeVotingWindow, VOTING_WINDOW_OPENER_POLICY } from '../../views/voting-window.js';

const placeholderPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>POLLSCOPE</title></head>
<body><h1>POLLSCOPE</h1><p>The web app has not been built. The API is at <a href="/api/docs">/api/docs</a>.</p></body></html>`;

/** Where the build puts the files whose names carry a hash of their content. */
const ASSETS = 'assets';

/**
 * The service worker (apps/web/src/service-worker): browsers look for a new one at every visit, so no cache may keep
 * it.
 */
const SERVICE_WORKER = 'sw.js';

/** The meta tag the web app reads the site's public address from, for the links it shares. */
export const PUBLIC_URL_META = 'pollscope:public-url';

/**
 * What the entry page differs by: the language it is in (i18n/locale.ts), which its first HTML says, so that a page in
 * Arabic is laid out right to left before any script runs. Every cache, the browser's too, keeps one copy per value.
 */
const VARY = 'Cookie, Accept-Language';

/**
 * `html` whose `<html>` element carries `locale`'s `lang` and `dir`, and its other attributes as they were; `data-locale`
 * tells the app the language the server chose, the account's among the rest (apps/web/src/i18n/locales.ts).
 */
export function withLanguage(html: string, locale: UiLocale): string {
  const attributes = `lang="${locale}" dir="${directionOf(locale)}" data-locale="${locale}"`;
  const root = /<html\b[^>]*>/i;
  if (root.test(html))
    return html.replace(root, (tag) =>
      tag
        .replace(/\s(?:lang|dir|data-locale)\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*)/gi, '')
        .replace(/^<html/i, `<html ${attributes}`),
    );
  // A page that leaves the element implied gets one, after its doctype.
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html)?.[0] ?? '';
  return `${doctype}<html ${attributes}>${html.slice(doctype.length)}`;
}

/**
 * The entry page in `locale` with the site's public address in it: written once per locale, at its first request (a
 * server started on any free port knows its address only once it listens, config.ts), with an ETag so that a browser
 * revalidating it (it is never cached) gets a 304; the locales' pages differ, and so do their ETags.
 */
function entryPage(
  indexFile: string,
  publicUrl: string,
  locale: UiLocale,
): { html: string; etag: string; inlineScripts: string[] } {
  const html = withLanguage(
    fs
      .readFileSync(indexFile, 'utf8')
      .replace('</head>', `<meta name="${PUBLIC_URL_META}" content="${escapeHtml(publicUrl)}">\n</head>`),
    locale,
  );
  return {
    html,
    etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 16)}"`,
    inlineScripts: inlineScriptSources(html),
  };
}

/**
 * The page's own inline scripts (the first script, which the build writes into it) as sources of
 * its Content-Security-Policy: allowed by their hashes, so that no other inline script runs.
 */
function inlineScriptSources(html: string): string[] {
  return [...html.matchAll(/<script>([^]*?)<\/script>/g)].map(
    ([, code]) => `'sha256-${createHash('sha256').update(code).digest('base64')}'`,
  );
}

/** Serves the built web app (WEB_DIST) at `/`; client-side routes fall back to its index.html. */
export async function webAppRoutes(app: FastifyInstance) {
  const { webDist: distDir } = app.config;
  const indexFile = path.join(distDir, 'index.html');
  const built = fs.existsSync(indexFile);
  const entries = new Map<UiLocale, ReturnType<typeof entryPage>>();
  const readFirstScreen = firstScreenReader(app, distDir);
  if (built) {
    // The build writes .br and .gz copies of its text files; browsers that accept them get those.
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      maxAge: '1h',
      preCompressed: true,
      // The renderer of the first screen is the server's own, not a file of the site.
      // The files that speak are sent in the asker's language (views/app-shell-files.ts).
      globIgnore: [
        `${ASSETS}/**`,
        'index.html*',
        `${SERVICE_WORKER}*`,
        'server/**',
        ...LOCALIZED_FILES.map((file) => `${file}*`),
      ],
    });
    app.get(`/${SERVICE_WORKER}`, { schema: { hide: true } }, (_request, reply) =>
      reply.header('cache-control', 'no-cache').sendFile(SERVICE_WORKER, { cacheControl: false }),
    );
    serveLocalizedFiles(app, distDir, requestLocale);
    // A hashed name is never reused for other content, so browsers keep these a year without asking again.
    await app.register(fastifyStatic, {
      root: path.join(distDir, ASSETS),
      prefix: `/${ASSETS}/`,
      wildcard: false,
      index: false,
      maxAge: '365d',
      immutable: true,
      preCompressed: true,
      decorateReply: false,
    });
  }
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    // No call of the API: the error handler's 404, in the person's language.
    if (request.url.startsWith('/api/') || request.url === '/api') return reply.callNotFound();
    // A file of an earlier build, asked for by a page loaded before a deploy, is gone: not the app.
    if (request.url.startsWith(`/${ASSETS}/`))
      return reply.code(404).send({
        message: message(await requestLocale(request), 'errors.noFile', { path: request.url.split('?')[0] }),
      });
    if (!built) return reply.type('text/html').send(placeholderPage);
    const { cookie } = request.headers;
    const locale = await requestLocale(request);
    let entry = entries.get(locale);
    if (!entry) entries.set(locale, (entry = entryPage(indexFile, app.config.publicUrl, locale)));
    // Every page differs by its language, and the page at the app's start by the session cookie too: a signed-in
    // person's has their feed in it.
    reply.header('vary', VARY);
    // The window an embed opens to vote keeps its opener, across signing in; every other page keeps `same-origin`.
    if (mayBeVotingWindow(request.url)) reply.header('cross-origin-opener-policy', VOTING_WINDOW_OPENER_POLICY);
    // The pseudo-locale's texts exist only in the app: its pages start without a first screen in another language.
    const atStart = request.url.split('?')[0] === '/' && !asksForPseudoLocale(cookie);
    const firstScreen = atStart ? await readFirstScreen(request, locale) : null;
    // The entry page must never be cached, or a deploy would leave browsers on old asset names; one with a person's
    // feed in it is theirs alone.
    if (firstScreen) reply.header('cache-control', 'private, no-store');
    else reply.header('cache-control', 'no-cache').header('etag', entry.etag);
    // The site's policy (security-headers.ts), with the page's own inline scripts allowed.
    const policy = reply.getHeader('content-security-policy');
    const { inlineScripts } = entry;
    if (typeof policy === 'string' && inlineScripts.length > 0) {
      reply.header(
        'content-security-policy',
        policy.replace(/script-src [^;]*/, (directive) => [directive, ...inlineScripts].join(' ')),
      );
    }
    if (!firstScreen && request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
    return reply
      .type('text/html; charset=utf-8')
      .send(firstScreen ? withFirstScreen(entry.html, firstScreen) : entry.html);
  });
}
