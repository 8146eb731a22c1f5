import fastifyStatic from '@fastify/static';
import type { UiLocale } from '@pollscope/contract';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { asksForPseudoLocale } from '../../i18n/locale.js';
import { requestLocale } from '../../views/request-locale.js';
import { LOCALIZED_FILES, serveLocalizedFiles } from './app-shell-files.js';
import { message } from '../../i18n/messages.js';
import {
  inlineScriptSources,
  readEntryPageTemplate,
  styleSheetsOf,
  writeEntryPage,
  type EntryPageTemplate,
  type FirstScreen,
} from './entry-page.js';
import { firstScreenReader } from './first-screen.js';
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

/**
 * What the entry page differs by: the language it is in (i18n/locale.ts), which its first HTML says, so that a page in
 * Arabic is laid out right to left before any script runs. Every cache, the browser's too, keeps one copy per value.
 */
const VARY = 'Cookie, Accept-Language';

/**
 * The entry pages of `template`: without a first screen, written once per locale, at its first request (a server
 * started on any free port knows its public address only once it listens, config.ts), with an ETag so that a browser
 * revalidating it (it is never cached) gets a 304, the locales' pages and ETags differing; with one, written for the
 * person whose it is.
 */
function entryPagesOf(template: EntryPageTemplate, publicUrl: () => string) {
  const plain = new Map<UiLocale, { html: string; etag: string }>();
  return {
    inLocale(locale: UiLocale) {
      let page = plain.get(locale);
      if (!page) {
        const html = writeEntryPage(template, { locale, publicUrl: publicUrl(), firstScreen: null });
        page = { html, etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 16)}"` };
        plain.set(locale, page);
      }
      return page;
    },
    withFirstScreen: (locale: UiLocale, firstScreen: FirstScreen) =>
      writeEntryPage(template, { locale, publicUrl: publicUrl(), firstScreen }),
    inlineScripts: inlineScriptSources(template),
  };
}

/**
 * Serves the build's files: the hashed assets, kept a year, the others an hour, the service worker never kept, and the
 * files that speak in the asker's language. The entry page and the server's own files (server/) are not among them.
 */
async function serveBuiltFiles(app: FastifyInstance, distDir: string) {
  // The build writes .br and .gz copies of its text files; browsers that accept them get those.
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    maxAge: '1h',
    preCompressed: true,
    // The entry page's template and the renderer of the first screen are the server's own, not files of the site.
    // The files that speak are sent in the asker's language (app-shell-files.ts).
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

/** Serves the built web app (WEB_DIST) at `/`; client-side routes fall back to its entry page. */
export async function webAppRoutes(app: FastifyInstance) {
  const { webDist: distDir } = app.config;
  const template = readEntryPageTemplate(distDir);
  if (template) await serveBuiltFiles(app, distDir);
  const entryPages = template && entryPagesOf(template, () => app.config.publicUrl);
  const readFirstScreen = firstScreenReader(
    app,
    distDir,
    template ? styleSheetsOf(template) : { page: [], firstScreen: [] },
  );
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    // No call of the API: the error handler's 404, in the person's language.
    if (request.url.startsWith('/api/') || request.url === '/api') return reply.callNotFound();
    // A file of an earlier build, asked for by a page loaded before a deploy, is gone: not the app.
    if (request.url.startsWith(`/${ASSETS}/`))
      return reply.code(404).send({
        message: message(await requestLocale(request), 'errors.noFile', { path: request.url.split('?')[0] }),
      });
    if (!entryPages) return reply.type('text/html').send(placeholderPage);
    const locale = await requestLocale(request);
    const entry = entryPages.inLocale(locale);
    // Every page differs by its language, and the page at the app's start by the session cookie too: a signed-in
    // person's has their feed in it.
    reply.header('vary', VARY);
    // The window an embed opens to vote keeps its opener, across signing in; every other page keeps `same-origin`.
    if (mayBeVotingWindow(request.url)) reply.header('cross-origin-opener-policy', VOTING_WINDOW_OPENER_POLICY);
    // The pseudo-locale's texts exist only in the app: its pages start without a first screen in another language.
    const atStart = request.url.split('?')[0] === '/' && !asksForPseudoLocale(request.headers.cookie);
    const firstScreen = atStart ? await readFirstScreen(request, locale) : null;
    // The entry page must never be cached, or a deploy would leave browsers on old asset names; one with a person's
    // feed in it is theirs alone.
    if (firstScreen) reply.header('cache-control', 'private, no-store');
    else reply.header('cache-control', 'no-cache').header('etag', entry.etag);
    // The site's policy (security-headers.ts), with the page's own inline scripts allowed.
    const policy = reply.getHeader('content-security-policy');
    const { inlineScripts } = entryPages;
    if (typeof policy === 'string' && inlineScripts.length > 0) {
      reply.header(
        'content-security-policy',
        policy.replace(/script-src [^;]*/, (directive) => [directive, ...inlineScripts].join(' ')),
      );
    }
    if (!firstScreen && request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
    return reply
      .type('text/html; charset=utf-8')
      .send(firstScreen ? entryPages.withFirstScreen(locale, firstScreen) : entry.html);
  });
}
