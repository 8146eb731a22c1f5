import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fs from 'node:fs';
import path from 'node:path';

const placeholderPage = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>POLLSCOPE</title></head>
<body><h1>POLLSCOPE</h1><p>The web app has not been built. The API is at <a href="/api/docs">/api/docs</a>.</p></body></html>`;

/** Serves the built web app at `/`; client-side routes fall back to its index.html. */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  if (hasBuild) {
    // The build writes .br and .gz copies of its text files; browsers that accept them get those.
    await app.register(fastifyStatic, { root: distDir, wildcard: false, index: false, maxAge: '1h', preCompressed: true });
  }
  app.get('/*', { schema: { hide: true } }, (request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api') {
      return reply.code(404).send({ message: `No route ${request.method} ${request.url.split('?')[0]}` });
    }
    if (!hasBuild) return reply.type('text/html').send(placeholderPage);
    // The entry page must never be cached, or a deploy would leave browsers on old asset names.
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
}
