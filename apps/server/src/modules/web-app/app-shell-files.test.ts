import { LANGUAGE_COOKIE } from '@pollscope/contract';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogs } from '../../i18n/messages.js';
import { createTestApp, type TestContext } from '../../test/helper.js';
import { writeEntryPageTemplate } from '../../test/web-build.js';
import { manifestIn, offlinePageIn } from './app-shell-files.js';

/** The web app's own files, as the build copies them (apps/web). */
const web = path.join(import.meta.dirname, '../../../../web');
const offlinePage = fs.readFileSync(path.join(web, 'offline.html'), 'utf8');
const manifest = fs.readFileSync(path.join(web, 'public/manifest.webmanifest'), 'utf8');

describe('the offline page and the manifest', () => {
  it('are the files as they are in English: each text the page marks is the English catalog’s', () => {
    /** The page as a browser reads its texts: white space between tags and words is one space, or none at a tag. */
    const read = (html: string) =>
      html
        .replace(/<html[^>]*>/, '')
        .replace(/\s+/g, ' ')
        .replace(/> | </g, (space) => space.trim());
    expect(read(offlinePageIn(offlinePage, 'en'))).toBe(read(offlinePage));
    for (const id of ['offline.title', 'offline.heading', 'offline.text', 'offline.retry'] as const)
      expect(read(offlinePage)).toContain(`data-message="${id}">${catalogs.en[id]}<`);
    expect(offlinePage).toContain(`aria-label="${catalogs.en['site.home']}" data-message-label="site.home"`);
    expect(JSON.parse(manifest).description).toBe(catalogs.en['manifest.description']);
  });

  it('speak the asker’s language, with its direction', () => {
    const japanese = offlinePageIn(offlinePage, 'ja');
    expect(japanese).toMatch(/<html lang="ja" dir="ltr">/);
    expect(japanese).toContain('<title data-message="offline.title">オフライン · POLLSCOPE</title>');
    expect(japanese).toContain('>オフラインです</h1>');
    expect(japanese).toContain('aria-label="POLLSCOPEホーム" data-message-label="site.home"');
    expect(japanese).not.toMatch(/You are offline|Try again|POLLSCOPE home/);
    expect(offlinePageIn(offlinePage, 'ar')).toMatch(/<html lang="ar" dir="rtl">/);
    expect(JSON.parse(manifestIn(manifest, 'de'))).toMatchObject({
      name: 'Pollscope',
      short_name: 'Pollscope',
      description: 'Beantworte Fragen und sieh dann, was alle anderen denken.',
      lang: 'de',
      dir: 'ltr',
    });
  });
});

describe('served from the build', () => {
  let dist: string;
  let ctx: TestContext;
  beforeAll(async () => {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-dist-'));
    writeEntryPageTemplate(dist, [
      '<!doctype html><html ',
      { slot: 'language' },
      '><head>',
      { slot: 'head-end' },
      '</head><body></body></html>',
    ]);
    fs.writeFileSync(path.join(dist, 'offline.html'), offlinePage);
    fs.writeFileSync(path.join(dist, 'manifest.webmanifest'), manifest);
    ctx = await createTestApp({ webDist: dist });
  });
  afterAll(async () => {
    await ctx?.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends each in the language of the request, the cookie’s over the browser’s, revalidated by its ETag', async () => {
    const offline = await ctx.app.inject({ url: '/offline.html', headers: { 'accept-language': 'fr-FR,fr;q=0.9' } });
    expect(offline.statusCode).toBe(200);
    expect(offline.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(offline.headers['content-language']).toBe('fr');
    expect(offline.headers.vary).toBe('Cookie, Accept-Language');
    expect(offline.body).toContain('>Vous êtes hors ligne</h1>');
    const again = await ctx.app.inject({
      url: '/offline.html',
      headers: { 'accept-language': 'fr', 'if-none-match': offline.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);

    const manifestReply = await ctx.app.inject({
      url: '/manifest.webmanifest',
      headers: { 'accept-language': 'fr', cookie: `${LANGUAGE_COOKIE}=it` },
    });
    expect(manifestReply.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifestReply.json()).toMatchObject({
      lang: 'it',
      description: 'Rispondi alle domande, poi scopri cosa ne pensano tutti.',
    });
  });
});
