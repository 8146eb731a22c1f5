import {
  answerBodySchema,
  api,
  EMBED_MIN_WIDTH,
  embedHeight,
  embedPath,
  errorBodySchema,
  liveResultSchema,
  OEMBED_PATH,
  oembedResponseSchema,
  questionSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { moderate } from '../../test/moderation.js';

let ctx: TestContext;
let author: TestUser;
let moderator: TestUser;
let question: number;

const PUBLIC_URL = 'https://polls.example.org';

beforeAll(async () => {
  ctx = await createTestApp({ publicUrl: PUBLIC_URL });
  author = await signUp(ctx, { firstName: 'Alice' });
  moderator = await signUp(ctx);
  await ctx.database.db.updateTable('users').set({ role: 'moderator' }).where('id', '=', moderator.id).execute();
  question = await ask(author, { question: 'Tea or coffee?', choices: ['Tea', 'Coffee'] });
  // Three of four for coffee: a result the page must not give away as 75% or 25%.
  for (const choice of [2, 2, 2, 1])
    await (await signUp(ctx)).api.post(api.answer(question), answerBodySchema, { choice }, questionSchema);
});
afterAll(() => ctx.close());

const openEmbed = (id: number | string, language = 'en') =>
  ctx.app.inject({ url: embedPath(id), headers: { accept: 'text/html', 'accept-language': language } });
const oembed = (query: string) => ctx.app.inject({ url: `${OEMBED_PATH}?${query}` });
const pageUrl = (id: number) => encodeURIComponent(`${PUBLIC_URL}/q/${id}`);
const htmlEntities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const unescapeHtml = (text: string) => text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => htmlEntities[name]);
const textOf = (html: string) =>
  html
    .slice(html.indexOf('<body>'))
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ');

describe('the embed page /embed/q/{id}', () => {
  it('shows the question, a button per choice, the vote count and the brand linking to its page, never the result', async () => {
    const reply = await openEmbed(question);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = reply.body;
    expect(html).toContain('<h1 class="title" dir="auto">Tea or coffee?</h1>');
    expect(html).toMatch(
      /<button type="button" class="choice" data-choice="1"><span class="label" dir="auto">Tea<\/span>/,
    );
    expect(html).toMatch(
      /<button type="button" class="choice" data-choice="2"><span class="label" dir="auto">Coffee<\/span>/,
    );
    expect(html).toContain('<p class="count" aria-live="polite">4 votes</p>');
    expect(html).toContain(`<a class="brand" href="${PUBLIC_URL}/q/${question}" target="_blank" rel="noopener">`);
    expect(textOf(html)).not.toMatch(/\d\s*%|\b75\b|\b25\b|Alice/);
  });

  it('offers ten ratings, or a field within the question’s bounds, as the question asks', async () => {
    const rating = await ask(author, { type: 'RS', question: 'How hot is it?', choices: [] });
    const ratingPage = (await openEmbed(rating)).body;
    for (let value = 1; value <= 10; value += 1)
      expect(ratingPage).toContain(`<button type="button" class="choice" data-choice="${value}">${value}</button>`);
    expect(ratingPage).toContain('role="group" aria-label="Rate from 1 to 10"');

    const number = await ask(author, { type: 'N', question: 'How many cups a day?', choices: ['0', '20'] });
    const numberPage = (await openEmbed(number)).body;
    expect(numberPage).toContain('<label class="hint" for="value">Answer with a number from 0 to 20</label>');
    expect(numberPage).toMatch(/<input id="value"[^>]* min="0" max="20" required>/);
    expect(numberPage).toContain('<button type="submit" class="vote">Vote</button>');
  });

  it('speaks the language of Accept-Language, right to left in Arabic, whatever cookie comes along', async () => {
    const german = await ctx.app.inject({
      url: embedPath(question),
      headers: { 'accept-language': 'de-AT,de;q=0.9', cookie: 'pollscope_lang=fr' },
    });
    expect(german.body).toContain('<html lang="de">');
    expect(german.body).toContain('4 Stimmen');
    expect(german.headers['content-language']).toBe('de');
    const arabic = (await openEmbed(question, 'ar')).body;
    expect(arabic).toContain('<html lang="ar" dir="rtl">');
  });

  it('hands its script the texts it shows later, the vote count in every plural form of the language', async () => {
    const attributes = (html: string) =>
      new Map([...html.matchAll(/ data-([\w-]+)="([^"]*)"/g)].map(([, name, value]) => [name, unescapeHtml(value)]));
    const english = attributes((await openEmbed(question)).body);
    expect(JSON.parse(english.get('votes')!)).toEqual({ one: '# vote', other: '# votes' });
    expect(english.get('average')).toBe('# average');
    expect(english.get('your-value')).toBe('Your answer: #');
    expect(english.get('unavailable')).toBe('This question is not available');
    const arabic = attributes((await openEmbed(question, 'ar')).body);
    expect(Object.keys(JSON.parse(arabic.get('votes')!))).toEqual(['zero', 'one', 'two', 'few', 'many', 'other']);
  });

  it('may be framed by any site, under a policy of its own, and is kept a minute by shared caches', async () => {
    const reply = await openEmbed(question);
    const policy = String(reply.headers['content-security-policy']);
    expect(policy.split('; ').sort()).toEqual(
      [
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "connect-src 'self'",
        "img-src 'self' data:",
        "base-uri 'none'",
        "form-action 'none'",
        'frame-ancestors *',
      ].sort(),
    );
    expect(reply.headers['x-frame-options']).toBeUndefined();
    expect(reply.headers['cache-control']).toBe('public, max-age=60');
    expect(reply.headers.vary).toBe('Accept-Language');
    expect(reply.headers['set-cookie']).toBeUndefined();
  });

  it('leaves every other page unframeable', async () => {
    for (const url of [`/q/${question}`, '/', '/question/1', OEMBED_PATH]) {
      const reply = await ctx.app.inject({ url });
      expect(String(reply.headers['content-security-policy']), url).toContain("frame-ancestors 'none'");
    }
  });

  it('says the question is not available once it is removed, and again once restored shows it', async () => {
    const id = await ask(author, { question: 'Soon gone?', choices: ['Yes', 'No'] });
    expect((await openEmbed(id)).body).toContain('Soon gone?');
    expect((await moderate(moderator, { target: 'question', id, action: 'remove', reason: 'Off topic' })).status).toBe(
      200,
    );
    const gone = await openEmbed(id);
    expect(gone.statusCode).toBe(404);
    expect(textOf(gone.body).trim()).toBe('This question is not available');
    expect(gone.headers['cache-control']).toBe('public, max-age=60');
    expect(gone.body).not.toContain('Soon gone?');
    expect(textOf((await openEmbed(id, 'fr')).body).trim()).toBe('Cette question n’est pas disponible');

    await moderate(moderator, { target: 'question', id, action: 'restore', reason: 'Fine after all' });
    expect((await openEmbed(id)).statusCode).toBe(200);
  });

  it('says the same of a question that does not exist or an id that is none', async () => {
    for (const id of [question + 1000, 'abc']) {
      const reply = await openEmbed(id);
      expect(reply.statusCode).toBe(404);
      expect(textOf(reply.body).trim()).toBe('This question is not available');
    }
  });
});

describe('the live count a visitor watches', () => {
  it('gives a visitor without a token the vote count, never the result', async () => {
    const reply = await ctx.app.inject({ url: api.live(question) });
    expect(reply.statusCode).toBe(200);
    expect(liveResultSchema.parse(reply.json())).toEqual({ id: question, result: null, like_count: 0, vote_count: 4 });
  });

  it('still gives the result to whoever voted', async () => {
    const voter = await signUp(ctx);
    await voter.api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
    const live = await voter.api.get(api.live(question), liveResultSchema);
    expect(live.result?.count).toBe(5);
    expect(live.vote_count).toBe(5);
  });

  it('is refused for a removed question', async () => {
    const id = await ask(author, { question: 'Watched, then gone?', choices: ['Yes', 'No'] });
    await moderate(moderator, { target: 'question', id, action: 'remove', reason: 'Off topic' });
    expect((await ctx.app.inject({ url: api.live(id) })).statusCode).toBe(404);
  });
});

describe('oEmbed', () => {
  it('answers the contract’s fields for a question’s page', async () => {
    const reply = await oembed(`url=${pageUrl(question)}`);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toBe('public, max-age=60');
    expect(reply.headers.vary).toContain('Accept-Language');
    const answer = oembedResponseSchema.strict().parse(reply.json());
    const height = embedHeight('MC', 2);
    expect(answer).toEqual({
      version: '1.0',
      type: 'rich',
      html: `<iframe src="${PUBLIC_URL}/embed/q/${question}" title="Tea or coffee?" width="500" height="${height}" style="border:0;max-width:100%" loading="lazy"></iframe>`,
      width: 500,
      height,
      title: 'Tea or coffee?',
      author_name: 'Alice',
      author_url: `${PUBLIC_URL}/user/${author.id}`,
      provider_name: 'Pollscope',
      provider_url: PUBLIC_URL,
      thumbnail_url: `${PUBLIC_URL}${api.questionCard(question)}`,
      thumbnail_width: 1200,
      thumbnail_height: 630,
      cache_age: 3600,
    });
    const picture = await ctx.app.inject({ url: new URL(answer.thumbnail_url).pathname });
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/png');
  });

  it('fits the frame within maxwidth and maxheight, never narrower than the page is laid out for', async () => {
    const narrow = oembedResponseSchema.parse(
      (await oembed(`url=${pageUrl(question)}&maxwidth=400&maxheight=200`)).json(),
    );
    expect([narrow.width, narrow.height]).toEqual([400, 200]);
    expect(narrow.html).toContain('width="400" height="200"');
    const tiny = oembedResponseSchema.parse((await oembed(`url=${pageUrl(question)}&maxwidth=120&format=json`)).json());
    expect(tiny.width).toBe(EMBED_MIN_WIDTH);
  });

  it('answers 404 for an unknown or removed question and for a URL not of this site', async () => {
    const id = await ask(author, { question: 'Pasted, then gone?', choices: ['Yes', 'No'] });
    expect((await oembed(`url=${pageUrl(id)}`)).statusCode).toBe(200);
    await moderate(moderator, { target: 'question', id, action: 'remove', reason: 'Off topic' });
    for (const url of [
      pageUrl(id),
      pageUrl(question + 1000),
      encodeURIComponent(`https://elsewhere.example.com/q/${question}`),
      encodeURIComponent(`${PUBLIC_URL}/user/${author.id}`),
      'not%20a%20url',
    ]) {
      const reply = await oembed(`url=${url}`);
      expect(reply.statusCode, url).toBe(404);
      expect(errorBodySchema.strict().parse(reply.json())).toEqual({ message: 'No such question' });
    }
  });

  it('answers 501 for XML', async () => {
    const reply = await oembed(`url=${pageUrl(question)}&format=xml`);
    expect(reply.statusCode).toBe(501);
    expect(errorBodySchema.strict().parse(reply.json())).toEqual({ message: 'oEmbed is answered in JSON only' });
  });

  it('is named by the share page’s discovery link', async () => {
    const html = (await ctx.app.inject({ url: `/q/${question}` })).body;
    const href = `${PUBLIC_URL}${OEMBED_PATH}?url=${pageUrl(question)}`.replaceAll('&', '&amp;');
    expect(html).toContain(
      `<link rel="alternate" type="application/json+oembed" href="${href}" title="Tea or coffee?">`,
    );
  });
});
