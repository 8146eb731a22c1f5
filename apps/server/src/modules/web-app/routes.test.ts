import { api, errorBodySchema, LANGUAGE_COOKIE, SESSION_COOKIE, settingsSchema } from '@pollscope/contract';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signUp, type TestContext } from '../../test/helper.js';
import { writeEntryPageTemplate } from '../../test/web-build.js';

const script = 'console.log("the app");'.repeat(50);
const firstScript = 'console.log("the page’s first script");';
let dist: string;
let ctx: TestContext;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  writeEntryPageTemplate(dist, [
    '<!doctype html><html ',
    { slot: 'language' },
    '><head>',
    { slot: 'inline-script', code: firstScript },
    '<title>POLLSCOPE</title>',
    { slot: 'app-file', tag: '<script type="module" src="/assets/app.js"></script>' },
    { slot: 'head-end' },
    '</head>',
  ]);
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(dist, 'assets', 'app.js'), script);
  fs.writeFileSync(path.join(dist, 'assets', 'app.js.br'), brotliCompressSync(script));
  fs.writeFileSync(path.join(dist, 'assets', 'app.js.gz'), gzipSync(script));
  ctx = await createTestApp({ webDist: dist, publicUrl: 'https://polls.example.org' });
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('the web app', () => {
  it('is served at / and at every client-side route, never cached', async () => {
    for (const url of ['/', '/question/7', '/relate/1/2/']) {
      const reply = await ctx.app.inject({ url });
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['content-type']).toMatch(/^text\/html/);
      expect(reply.headers['cache-control']).toBe('no-cache');
      expect(reply.body).toContain('<title>POLLSCOPE</title>');
    }
  });

  it('tells the app the site’s public address, for the links it shares, and answers a revalidation with 304', async () => {
    const reply = await ctx.app.inject({ url: '/index.html' });
    expect(reply.body).toContain('<meta name="pollscope:public-url" content="https://polls.example.org">\n</head>');
    const revalidated = await ctx.app.inject({ url: '/', headers: { 'if-none-match': String(reply.headers.etag) } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers['cache-control']).toBe('no-cache');
  });

  it('lets the page’s own inline script run, by its hash, and no other', async () => {
    const reply = await ctx.app.inject({ url: '/' });
    const scriptSrc = /(?:^|;)\s*script-src ([^;]*)/.exec(String(reply.headers['content-security-policy']))?.[1];
    expect(scriptSrc).toBe(`'self' 'sha256-${createHash('sha256').update(firstScript).digest('base64')}'`);
  });

  it('lets browsers keep the hashed assets a year without asking again, and other files an hour', async () => {
    for (const encoding of ['br', 'identity']) {
      const asset = await ctx.app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': encoding } });
      expect(asset.statusCode).toBe(200);
      expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    expect((await ctx.app.inject({ url: '/favicon.svg' })).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('answers 404 for an asset that is not there, such as one of an earlier build', async () => {
    const reply = await ctx.app.inject({ url: '/assets/app-0ld.js' });
    expect(reply.statusCode).toBe(404);
    expect(reply.headers['content-type']).not.toMatch(/^text\/html/);
  });

  it('sends its scripts compressed to browsers that accept it, and plain to the others', async () => {
    const brotli = await ctx.app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brotli.rawPayload).toString()).toBe(script);

    const gzip = await ctx.app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');

    const plain = await ctx.app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it('says the language of the request in its first HTML, right to left for Arabic, and varies by what chose it', async () => {
    const arabic = await ctx.app.inject({ url: '/', headers: { 'accept-language': 'ar' } });
    expect(arabic.statusCode).toBe(200);
    expect(arabic.body).toMatch(/^<!doctype html><html lang="ar" dir="rtl" data-locale="ar"><head>/);
    // Revalidated by shared caches too (no-cache): each keeps one copy per cookie and language.
    expect(arabic.headers.vary).toBe('Cookie, Accept-Language');
    expect(arabic.headers['cache-control']).toBe('no-cache');

    const german = await ctx.app.inject({ url: '/question/7', headers: { 'accept-language': 'de-AT,de;q=0.9' } });
    expect(german.body).toContain('<html lang="de" dir="ltr" data-locale="de">');
    expect(german.headers.vary).toBe('Cookie, Accept-Language');
    // A page kept in another language is not one to keep.
    const revalidated = await ctx.app.inject({
      url: '/',
      headers: { 'accept-language': 'de', 'if-none-match': String(arabic.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(200);
    expect(revalidated.body).toContain('<html lang="de" dir="ltr" data-locale="de">');

    const chosen = await ctx.app.inject({
      url: '/',
      headers: { 'accept-language': 'ar', cookie: `${LANGUAGE_COOKIE}=ja` },
    });
    expect(chosen.body).toContain('<html lang="ja" dir="ltr" data-locale="ja">');
    expect((await ctx.app.inject({ url: '/' })).body).toContain('<html lang="en" dir="ltr" data-locale="en">');
  });

  it('is in a signed-in person’s own language, whatever the browser asks for', async () => {
    const person = await signUp(ctx);
    const settings = await person.api.get(api.settings, settingsSchema);
    expect((await person.api.raw('POST', api.settings, { ...settings, language: 'pt-BR' })).status).toBe(200);
    const reply = await ctx.app.inject({
      url: '/question/7',
      headers: { 'accept-language': 'ar', cookie: `${LANGUAGE_COOKIE}=ja; ${SESSION_COOKIE}=${person.token}` },
    });
    expect(reply.body).toContain('<html lang="pt-BR" dir="ltr" data-locale="pt-BR">');
  });

  it('leaves unknown API paths to the API’s 404', async () => {
    const reply = await ctx.app.inject({ url: '/api/no/such/call/' });
    expect(reply.statusCode).toBe(404);
    expect(errorBodySchema.strict().parse(reply.json())).toHaveProperty('message');
  });
});
