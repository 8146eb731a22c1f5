import { directionOf, type UiLocale } from '@pollscope/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { message, type MessageId } from '../../i18n/messages.js';
import { escapeHtml } from '../../lib/html.js';

/**
 * The web app's files that speak but are no screen of it: the page the service worker shows when the device is offline
 * (apps/web/offline.html) and the web manifest, whose description an installed app shows. The build writes them in
 * English; the server sends them in the language of whoever asks (CONTRACT.md §7), as it does the entry page.
 */
export const LOCALIZED_FILES = ['offline.html', 'manifest.webmanifest'] as const;

/** The offline page's texts: elements marked `data-message="id"` hold the message; `data-message-label` names the id of their `aria-label`. */
const TEXT = /(<(\w+)\b[^>]*\sdata-message="([\w.]+)"[^>]*>)[^<]*(<\/\2>)/g;
const LABEL = /\saria-label="[^"]*"([^>]*?)\sdata-message-label="([\w.]+)"/g;

/** The offline page in `locale`: its texts from the catalog, and `<html lang dir>`. */
export function offlinePageIn(html: string, locale: UiLocale): string {
  const text = (id: string) => escapeHtml(message(locale, id as MessageId));
  return html
    .replace(/<html\b[^>]*>/i, `<html lang="${locale}" dir="${directionOf(locale)}">`)
    .replace(TEXT, (_all, start: string, _tag: string, id: string, end: string) => `${start}${text(id)}${end}`)
    .replace(
      LABEL,
      (_all, between: string, id: string) => ` aria-label="${text(id)}"${between} data-message-label="${id}"`,
    );
}

/** The web manifest in `locale`: its description, and its `lang` and `dir`; the brand's name is the same in all. */
export function manifestIn(json: string, locale: UiLocale): string {
  const manifest = JSON.parse(json) as Record<string, unknown>;
  return `${JSON.stringify(
    { ...manifest, description: message(locale, 'manifest.description'), lang: locale, dir: directionOf(locale) },
    null,
    2,
  )}\n`;
}

const TYPES: Record<(typeof LOCALIZED_FILES)[number], string> = {
  'offline.html': 'text/html; charset=utf-8',
  'manifest.webmanifest': 'application/manifest+json; charset=utf-8',
};
const MAKERS: Record<(typeof LOCALIZED_FILES)[number], (content: string, locale: UiLocale) => string> = {
  'offline.html': offlinePageIn,
  'manifest.webmanifest': manifestIn,
};

/**
 * Serves each of LOCALIZED_FILES of the build in `distDir` in the language `localeOf` finds for the request: made once
 * per file and locale, at its first request, and revalidated by its ETag. Every cache, the service worker's copy aside,
 * keeps one per language (`Vary`). The static files' plugin must leave them out.
 */
export function serveLocalizedFiles(
  app: FastifyInstance,
  distDir: string,
  localeOf: (request: FastifyRequest) => Promise<UiLocale>,
): void {
  for (const file of LOCALIZED_FILES) {
    const source = path.join(distDir, file);
    if (!fs.existsSync(source)) continue;
    const made = new Map<UiLocale, { content: string; etag: string }>();
    app.get(`/${file}`, { schema: { hide: true } }, async (request, reply) => {
      const locale = await localeOf(request);
      let page = made.get(locale);
      if (!page) {
        const content = MAKERS[file](fs.readFileSync(source, 'utf8'), locale);
        page = { content, etag: `"${createHash('sha256').update(content).digest('base64url').slice(0, 16)}"` };
        made.set(locale, page);
      }
      reply
        .header('vary', 'Cookie, Accept-Language')
        .header('content-language', locale)
        .header('cache-control', 'no-cache')
        .header('etag', page.etag);
      if (request.headers['if-none-match'] === page.etag) return reply.code(304).send();
      return reply.type(TYPES[file]).send(page.content);
    });
  }
}
