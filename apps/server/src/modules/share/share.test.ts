import { answerBodySchema, api, errorBodySchema, questionSchema, SESSION_COOKIE } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { moderate } from '../../test/moderation.js';
import { CardDrawer } from './card-drawer.js';
import { CardImages } from './card-image.js';
import { shownVotes } from './wording.js';

let ctx: TestContext;
let author: TestUser;
let question: number;

const PUBLIC_URL = 'https://polls.example.org';

beforeAll(async () => {
  ctx = await createTestApp({ publicUrl: PUBLIC_URL });
  author = await signUp(ctx, { firstName: 'Alice' });
  question = await ask(author, { question: 'Tea or coffee?', choices: ['Tea', 'Coffee'], tags: ['drinks'] });
  // Three of four for coffee: a result a page must not give away as 75% or 25%.
  for (const choice of [2, 2, 2, 1])
    await (await signUp(ctx)).api.post(api.answer(question), answerBodySchema, { choice }, questionSchema);
});
afterAll(() => ctx.close());

const openPage = (path: string) => ctx.app.inject({ url: path, headers: { accept: 'text/html' } });

const htmlEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const unescapeHtml = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => htmlEntities[name]);

/** The content of each `<meta property|name="…" content="…">` of a page, as a reader of link previews gets it. */
function metaTags(html: string): Map<string, string> {
  return new Map(
    [...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map(([, name, content]) => [
      name,
      unescapeHtml(content),
    ]),
  );
}

/** Width and height from a PNG's header: its signature, then the IHDR chunk first. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

describe('the share page /q/{id}', () => {
  it('shows anyone the question, its choices, vote count and author, with link preview tags, and never its result', async () => {
    const reply = await openPage(`/q/${question}`);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = reply.body;
    expect(html).toContain('<h1 id="question-title">Tea or coffee?</h1>');
    expect(html).toContain('<li>Tea</li><li>Coffee</li>');
    expect(html).toContain('4 votes');
    expect(html).toContain('Asked by <span class="author">Alice</span>');
    expect(html).toContain('#drinks');
    const body = html.slice(html.indexOf('<body>'));
    expect(body).not.toMatch(/\d\s*%|\b75\b/);

    const tags = metaTags(html);
    expect(tags.get('og:title')).toBe('Tea or coffee?');
    expect(tags.get('og:description')).toBe('Asked by Alice · 4 votes. Tea · Coffee. Answer to see how people split.');
    expect(tags.get('og:url')).toBe(`${PUBLIC_URL}/q/${question}`);
    expect(tags.get('og:image')).toMatch(
      new RegExp(`^${PUBLIC_URL}/api/polls/question/${question}/card\\.png\\?v=[\\w-]+$`),
    );
    expect(tags.get('twitter:card')).toBe('summary_large_image');
    expect(tags.get('twitter:image')).toBe(tags.get('og:image'));
  });

  it('leads to the question in the app, through the quiz and sign-up for a visitor', async () => {
    const html = (await openPage(`/q/${question}`)).body;
    const destination = encodeURIComponent(`/question/${question}`);
    expect(html).toContain(`<a class="btn" href="/quiz?next=${destination}">Answer this question</a>`);
    expect(html).toContain(`<a href="/login?next=${destination}">Log in</a>`);
  });

  it('writes what people typed as text, never as markup', async () => {
    const mallory = await signUp(ctx, { firstName: '"><b>Mal</b>' });
    const title = `<script>alert("hi")</script> & 'you'?`;
    const id = await ask(mallory, {
      question: title,
      choices: ['<img src=x onerror=alert(1)>', 'a "quoted" & <b>bold</b> choice'],
    });
    const html = (await openPage(`/q/${id}`)).body;
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;script&gt;alert(&quot;hi&quot;)&lt;/script&gt; &amp; &#39;you&#39;?');
    expect(html).toContain('<li>&lt;img src=x onerror=alert(1)&gt;</li>');
    const tags = metaTags(html);
    expect(tags.get('og:title')).toBe(title);
    expect(tags.get('og:description')).toContain(
      'Asked by "><b>Mal</b> · 0 votes. <img src=x onerror=alert(1)> · a "quoted" & <b>bold</b> choice.',
    );
  });

  it('says how a rating or a number is answered', async () => {
    const rating = await ask(author, { type: 'RS', question: 'How good is tea?', choices: [] });
    const number = await ask(author, { type: 'N', question: 'How many cups a day?', choices: ['0', '20'] });
    expect((await openPage(`/q/${rating}`)).body).toContain('<p class="scale">Rate from 1 to 10</p>');
    expect((await openPage(`/q/${number}`)).body).toContain('<p class="scale">Answer with a number from 0 to 20</p>');
  });

  it('is in the visitor’s language: French for Accept-Language: fr, with <html lang dir>', async () => {
    const reply = await ctx.app.inject({ url: `/q/${question}`, headers: { 'accept-language': 'fr-CH, fr;q=0.9' } });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-language']).toBe('fr');
    expect(reply.headers.vary).toMatch(/Cookie, Accept-Language/);
    const html = reply.body;
    expect(html).toMatch(/<html lang="fr">/);
    expect(html).toContain('Posée par <span class="author">Alice</span>');
    expect(html).toContain('4 votes <span>· répondez pour voir comment les avis se partagent</span>');
    expect(html).toContain('>Répondre à cette question</a>');
    expect(html).toContain(
      `Déjà membre\u00A0? <a href="/login?next=${encodeURIComponent(`/question/${question}`)}">Se connecter</a>`,
    );
    expect(html).toContain('<title>Tea or coffee? · POLLSCOPE</title>');
    expect(html).toContain('aria-label="Accueil POLLSCOPE"');
    // The question is the author's own text, in whatever language it was asked.
    expect(html).toContain('<h1 id="question-title">Tea or coffee?</h1>');
    expect(metaTags(html).get('og:description')).toBe(
      'Posée par Alice · 4 votes. Tea · Coffee. Répondez pour voir comment les avis se partagent.',
    );
    expect(html).not.toContain('Asked by');
  });

  it('is right to left in Arabic, and in the signed-in account’s language over the browser’s', async () => {
    const arabic = (await ctx.app.inject({ url: `/q/${question}`, headers: { 'accept-language': 'ar' } })).body;
    expect(arabic).toMatch(/<html lang="ar" dir="rtl">/);
    expect(arabic).toContain('سأله <span class="author">Alice</span>');
    expect(arabic).toContain('>4 أصوات <span>');

    const reader = await signUp(ctx);
    await ctx.database.db.updateTable('users').set({ language: 'de' }).where('id', '=', reader.id).execute();
    const reply = await ctx.app.inject({
      url: `/q/${question}`,
      headers: { 'accept-language': 'fr', cookie: `${SESSION_COOKIE}=${reader.token}` },
    });
    expect(reply.headers['content-language']).toBe('de');
    expect(reply.body).toContain('Gefragt von <span class="author">Alice</span>');
    expect((await openPage(`/q/${question + 1000}`)).body).toContain('<h1>Page not found!</h1>');
    const missing = await ctx.app.inject({ url: `/q/${question + 1000}`, headers: { 'accept-language': 'ja' } });
    expect(missing.body).toContain('<h1>ページが見つかりません</h1>');
  });

  it('is a page-not-found for a question that does not exist', async () => {
    for (const path of [`/q/${question + 1000}`, '/q/0', '/q/abc', '/q/1%2F2']) {
      const reply = await openPage(path);
      expect(reply.statusCode, path).toBe(404);
      expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(reply.body).toContain('<h1>Page not found!</h1>');
      expect(metaTags(reply.body).has('og:title')).toBe(false);
    }
  });
});

describe('the picture of a question', () => {
  const imageOf = async (id: number) => new URL(metaTags((await openPage(`/q/${id}`)).body).get('og:image')!);

  it('is a 1200×630 PNG anyone can load, which caches keep five minutes at most', async () => {
    const image = await imageOf(question);
    const reply = await ctx.app.inject({ url: `${image.pathname}${image.search}` });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('image/png');
    expect(reply.headers['cache-control']).toBe('public, max-age=300');
    expect(reply.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(pngSize(reply.rawPayload)).toEqual({ width: 1200, height: 630 });

    // Without the version, the same picture, kept as briefly.
    const unversioned = await ctx.app.inject({ url: api.questionCard(question) });
    expect(unversioned.headers['cache-control']).toBe('public, max-age=300');
    expect(unversioned.rawPayload).toEqual(reply.rawPayload);
    const revalidated = await ctx.app.inject({
      url: api.questionCard(question),
      headers: { 'if-none-match': String(reply.headers.etag) },
    });
    expect(revalidated.statusCode).toBe(304);
  });

  it('is named anew when the vote count it shows changes', async () => {
    const id = await ask(author, { question: 'Morning or evening?', choices: ['Morning', 'Evening'] });
    const before = await imageOf(id);
    await (await signUp(ctx)).api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
    const after = await imageOf(id);
    expect(after.searchParams.get('v')).not.toBe(before.searchParams.get('v'));
    // A picture asked for by its old name is the current one, and not cached for long.
    const stale = await ctx.app.inject({ url: `${before.pathname}${before.search}` });
    expect(stale.statusCode).toBe(200);
    expect(stale.headers['cache-control']).toBe('public, max-age=300');
  });

  it('answers 404, kept by no cache, once a moderator removes its question, and is back once restored', async () => {
    const id = await ask(author, { question: 'Cats or dogs?', choices: ['Cats', 'Dogs'] });
    const image = await imageOf(id);
    const url = `${image.pathname}${image.search}`;
    const shown = await ctx.app.inject({ url });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['cache-control']).toBe('public, max-age=300');

    const moderator = await signUp(ctx);
    await ctx.database.db.updateTable('users').set({ role: 'moderator' }).where('id', '=', moderator.id).execute();
    const remove = await moderate(moderator, { target: 'question', id, action: 'remove', reason: 'Off topic' });
    expect(remove.status).toBe(200);
    // A cache revalidating the copy it holds (by its ETag) hears that it is gone, as does anyone asking afresh.
    for (const headers of [{}, { 'if-none-match': String(shown.headers.etag) }]) {
      for (const path of [url, api.questionCard(id)]) {
        const gone = await ctx.app.inject({ url: path, headers });
        expect(gone.statusCode, path).toBe(404);
        expect(gone.headers['cache-control']).toBe('no-cache');
        expect(errorBodySchema.strict().parse(gone.json())).toEqual({ message: 'No such question' });
      }
    }

    await moderate(moderator, { target: 'question', id, action: 'restore', reason: 'Fine after all' });
    expect((await ctx.app.inject({ url })).statusCode).toBe(200);
  });

  it('answers 404 for a question that does not exist and 400 for an id that is none', async () => {
    expect((await ctx.app.inject({ url: api.questionCard(question + 1000) })).statusCode).toBe(404);
    expect((await ctx.app.inject({ url: api.questionCard('abc') })).statusCode).toBe(400);
  });

  it('is drawn once per version, then kept', async () => {
    const pictures = new CardImages(1);
    try {
      const shown = await author.api.get(api.question(question), questionSchema);
      const [first, second] = await Promise.all([pictures.png(shown, 'en'), pictures.png(shown, 'en')]);
      expect(second).toBe(first);
      expect(await pictures.png(shown, 'en')).toBe(first);
      expect(await pictures.png({ ...shown, vote_count: shown.vote_count + 10 }, 'en')).not.toBe(first);
    } finally {
      await pictures.close();
    }
  });

  it('refuses, for a few seconds, a picture past the many already waiting to be drawn', async () => {
    const pictures = new CardImages(1, 2);
    try {
      const shown = await author.api.get(api.question(question), questionSchema);
      const waiting = [pictures.png(shown, 'en'), pictures.png({ ...shown, title: 'Another' }, 'en')];
      await expect(pictures.png({ ...shown, title: 'One too many' }, 'en')).rejects.toMatchObject({ statusCode: 503 });
      // The same picture again joins its drawing.
      waiting.push(pictures.png(shown, 'en'));
      const [first, , again] = await Promise.all(waiting);
      expect(again).toBe(first);
    } finally {
      await pictures.close();
    }
  });

  // Each starts a drawing thread twice, which loads the drawing library and its fonts: seconds on a busy machine.
  it('draws again in a new thread after its thread ended idle', { timeout: 90_000 }, async () => {
    let ended = () => {};
    const drawer = new CardDrawer(50, () => ended());
    const pictures = new CardImages(1, 32, drawer);
    try {
      const shown = await author.api.get(api.question(question), questionSchema);
      const threadEnded = new Promise<void>((resolve) => (ended = resolve));
      const first = await pictures.png(shown, 'en');
      // Past its idle time the thread ends; the next picture starts another.
      await threadEnded;
      const again = await pictures.png({ ...shown, title: 'Asked again' }, 'en');
      expect(pngSize(again)).toEqual(pngSize(first));
    } finally {
      await pictures.close();
    }
  });

  it('draws a picture asked for while its thread is ending in a new thread', { timeout: 90_000 }, async () => {
    const drawer = new CardDrawer();
    const pictures = new CardImages(1, 32, drawer);
    try {
      const shown = await author.api.get(api.question(question), questionSchema);
      await pictures.png(shown, 'en');
      // The idle end is this same call; the picture is asked for before the thread has ended.
      const ending = drawer.close();
      const asked = pictures.png({ ...shown, title: 'Asked while ending' }, 'en');
      await ending;
      expect(pngSize(await asked)).toEqual({ width: 1200, height: 630 });
    } finally {
      await pictures.close();
    }
  });

  it('frames the picture in the asker’s language, whoever asks for it', async () => {
    const before = await imageOf(question);
    await ctx.database.db.updateTable('users').set({ language: 'ja' }).where('id', '=', author.id).execute();
    try {
      const after = await imageOf(question);
      // Another picture for another frame, whatever the language of the page that names it.
      expect(after.searchParams.get('v')).not.toBe(before.searchParams.get('v'));
      const fromGerman = new URL(
        metaTags((await ctx.app.inject({ url: `/q/${question}`, headers: { 'accept-language': 'de' } })).body).get(
          'og:image',
        )!,
      );
      expect(fromGerman.searchParams.get('v')).toBe(after.searchParams.get('v'));
    } finally {
      await ctx.database.db.updateTable('users').set({ language: 'en' }).where('id', '=', author.id).execute();
    }
    expect(shownVotes(4, 'ja')).toBe('4票');
    expect(shownVotes(47, 'de')).toBe('40+ Stimmen');
    expect(shownVotes(1234, 'fr')).toMatch(/^1,2\s?k\+ votes$/);
  });

  it('shows a vote count rounded down, so that it stays right while votes come in', () => {
    const shown = [0, 1, 9, 10, 47, 99, 100, 999, 1234, 25_000, 3_456_789].map((count) => shownVotes(count, 'en'));
    expect(shown).toEqual([
      '0 votes',
      '1 vote',
      '9 votes',
      '10+ votes',
      '40+ votes',
      '90+ votes',
      '100+ votes',
      '990+ votes',
      '1.2K+ votes',
      '25K+ votes',
      '3.4M+ votes',
    ]);
  });
});
