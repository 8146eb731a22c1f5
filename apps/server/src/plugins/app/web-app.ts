import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { escapeHtml } from '../../lib/html.js';
import { firstScreenReader, withFirstScreen } from '../../views/first-screen.js';

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
 * The entry page with the site's public address in it: written once, at the first request (a
 * server started on any free port knows its address only once it listens, config.ts), with an
 * ETag so that a browser revalidating it (it is never cached) gets a 304.
 */
function entryPage(indexFile: string, publicUrl: string): { html: string; etag: string; inlineScripts: string[] } {
  const html = fs
    .readFileSync(indexFile, 'utf8')
    .replace('</head>', `<meta name="${PUBLIC_URL_META}" content="${escapeHtml(publicUrl)}">\n</head>`);
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
export const webAppPlugin = fp(
  async (app: FastifyInstance) => {
    const { webDist: distDir } = app.config;
    const indexFile = path.join(distDir, 'index.html');
    const built = fs.existsSync(indexFile);
    let entry: ReturnType<typeof entryPage> | undefined;
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
        globIgnore: [`${ASSETS}/**`, 'index.html*', `${SERVICE_WORKER}*`, 'server/**'],
      });
      app.get(`/${SERVICE_WORKER}`, { schema: { hide: true } }, (_request, reply) =>
        reply.header('cache-control', 'no-cache').sendFile(SERVICE_WORKER, { cacheControl: false }),
      );
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
      if (request.url.startsWith('/api/') || request.url === '/api') {
        return reply.code(404).send({ message: `No route ${request.method} ${request.url.split('?')[0]}` });
      }
      // A file of an earlier build, asked for by a page loaded before a deploy, is gone: not the app.
      if (request.url.startsWith(`/${ASSETS}/`))
        return reply.code(404).send({ message: `No file ${request.url.split('?')[0]}` });
      if (!built) return reply.type('text/html').send(placeholderPage);
      entry ??= entryPage(indexFile, app.config.publicUrl);
      // The page at the app's start differs by the session cookie: a signed-in person's has their feed in it.
      const atStart = request.url.split('?')[0] === '/';
      if (atStart) reply.header('vary', 'cookie');
      const firstScreen = atStart ? await readFirstScreen(request) : null;
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
  },
  { name: 'web-app', decorators: { fastify: ['config'] } },
);
