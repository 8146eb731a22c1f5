import { api, blockedSchema, connectedSchema, FIRST_SCREEN_DATA_ID, SESSION_COOKIE } from '@pollscope/contract';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';
import { writeEntryPageTemplate } from '../../test/web-build.js';

/**
 * A build of the web app with a renderer of its own, which shows what it was given: the real one
 * renders the app's components, and the browser tests look at that (apps/web/e2e).
 */
const page = `<!doctype html><html><head><meta charset="UTF-8" /><script>startFirstScreen()</script><title>POLLSCOPE</title>
<script type="module" crossorigin src="/assets/index-1.js"></script>
<link rel="stylesheet" crossorigin href="/assets/global-1.css">
<link rel="modulepreload" crossorigin href="/assets/root-1.js">
<link rel="preload" as="style" crossorigin href="/assets/frame-1.css">
</head><body><div id="root"></div></body></html>`;
/** `page` as the build leaves it for the server: cut where the server writes (its first screen needs frame-1.css). */
const template = [
  '<!doctype html><html ',
  { slot: 'language' },
  '><head><meta charset="UTF-8" />',
  { slot: 'first-screen-data' },
  { slot: 'inline-script', code: 'startFirstScreen()' },
  '<title>POLLSCOPE</title>\n',
  { slot: 'app-file', tag: '<script type="module" crossorigin src="/assets/index-1.js"></script>' },
  '\n',
  {
    slot: 'style-sheet',
    href: '/assets/global-1.css',
    tag: '<link rel="stylesheet" crossorigin href="/assets/global-1.css">',
  },
  '\n',
  { slot: 'app-file', tag: '<link rel="modulepreload" crossorigin href="/assets/root-1.js">' },
  '\n',
  { slot: 'app-file', tag: '<link rel="preload" as="style" crossorigin href="/assets/frame-1.css">' },
  '\n',
  { slot: 'head-end' },
  '</head><body><div id="root">',
  { slot: 'first-screen' },
  '</div>',
  { slot: 'app-files' },
  '</body></html>',
] as const;
const renderer = `
export const firstScreenData = ['/api/polls/questions/', '/api/auth/account/'];
const text = (value) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;');
export async function renderFirstScreen(answers) {
  const { questions } = answers['/api/polls/questions/'];
  if (questions.some(({ title }) => title.includes('cannot be rendered'))) throw new Error('a card failed');
  return '<p>' + text(answers['/api/auth/account/'].first_name) + '</p>'
    + questions.map(({ title }) => '<article>' + text(title) + '</article>').join('');
}`;

let dist: string;
let ctx: TestContext;
let reader: TestUser;
let followed: TestUser;
let blocked: TestUser;

const openApp = (token?: string) =>
  ctx.app.inject({ url: '/', headers: token ? { cookie: `theme=dark; ${SESSION_COOKIE}=${token}` } : {} });

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  writeEntryPageTemplate(dist, [...template], ['/assets/frame-1.css']);
  fs.writeFileSync(path.join(dist, 'assets', 'global-1.css'), 'body{margin:0}');
  fs.writeFileSync(path.join(dist, 'assets', 'frame-1.css'), '.card{border:1px solid}');
  fs.writeFileSync(path.join(dist, 'server', 'first-screen.js'), renderer);
  ctx = await createTestApp({ webDist: dist });
  reader = await signUp(ctx, { firstName: 'Ben' });
  followed = await signUp(ctx);
  blocked = await signUp(ctx);
  for (const author of [followed, blocked]) await reader.api.post(api.follow(author.id), connectedSchema);
  await ask(followed, { question: 'Tea <or> coffee & why?' });
  await ask(blocked, { question: 'A question from someone blocked?' });
  await reader.api.post(api.ban(blocked.id), blockedSchema);
});
afterAll(async () => {
  await ctx.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('the page at / for a signed-in person', () => {
  it('has their feed in it, read through the API with the session cookie, and is theirs alone', async () => {
    const reply = await openApp(reader.token);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toBe('private, no-store');
    expect(reply.headers.vary).toBe('Cookie, Accept-Language');
    expect(reply.headers.etag).toBeUndefined();
    expect(reply.body).toContain(
      '<div id="root"><div inert style="display:contents"><p>Ben</p><article>Tea &lt;or> coffee &amp; why?</article></div></div>',
    );
    // Blocked people's questions stay out, as in the feed the API sends.
    expect(reply.body).not.toContain('someone blocked');

    const data = new RegExp(`<script type="application/json" id="${FIRST_SCREEN_DATA_ID}">(.*?)</script>`).exec(
      reply.body,
    )?.[1];
    expect(data).not.toContain('<');
    const feed = await ctx.app.inject({ url: api.feed, headers: { authorization: `Token ${reader.token}` } });
    expect(JSON.parse(data!)[api.feed]).toEqual(feed.json());
  });

  it('shows at once: its style sheets written in, the app’s files loaded from a template once the feed is shown', async () => {
    const { body } = await openApp(reader.token);
    expect(body).not.toContain('<link rel="stylesheet"');
    expect(body).toContain('<style>body{margin:0}</style>');
    expect(body).toContain('<style>.card{border:1px solid}</style></head>');
    const head = body.slice(0, body.indexOf('</head>'));
    expect(head).not.toMatch(/modulepreload|rel="preload"|type="module"/);
    expect(body).toContain(
      '<template id="pollscope-app-files"><script type="module" crossorigin src="/assets/index-1.js"></script><link rel="modulepreload" crossorigin href="/assets/root-1.js"><link rel="preload" as="style" crossorigin href="/assets/frame-1.css"></template>',
    );
    // The page's first script still runs, by its hash.
    expect(String((await openApp(reader.token)).headers['content-security-policy'])).toMatch(
      /script-src 'self' 'sha256-/,
    );
  });

  it('is the page every visitor gets without a session, with one that is no token, or once it has ended', async () => {
    const visitor = await openApp();
    expect(visitor.headers['cache-control']).toBe('no-cache');
    expect(visitor.headers.vary).toBe('Cookie, Accept-Language');
    expect(visitor.body).toBe(
      page
        .replace('<html>', '<html lang="en" dir="ltr" data-locale="en">')
        .replace('</head>', (end) => `${visitor.body.match(/<meta name="pollscope:public-url"[^>]*>\n/)![0]}${end}`),
    );

    const leaving = await signUp(ctx);
    expect((await leaving.api.raw('POST', api.logout)).status).toBe(204);
    expect((await openApp(leaving.token)).body).toBe(visitor.body);
    for (const cookie of [`${SESSION_COOKIE}=%E0%A4%A`, `${SESSION_COOKIE}=a%0Ab`, `${SESSION_COOKIE}=`])
      expect((await ctx.app.inject({ url: '/', headers: { cookie } })).body).toBe(visitor.body);
    // Elsewhere than the feed, the page starts empty too.
    const question = await ctx.app.inject({
      url: '/question/1',
      headers: { cookie: `${SESSION_COOKIE}=${reader.token}` },
    });
    expect(question.body).toBe(visitor.body);
  });

  it('starts empty when the feed cannot be rendered, rather than failing', async () => {
    const author = await signUp(ctx);
    const person = await signUp(ctx);
    await person.api.post(api.follow(author.id), connectedSchema);
    await ask(author, { question: 'This one cannot be rendered?' });
    const reply = await openApp(person.token);
    expect(reply.statusCode).toBe(200);
    expect(reply.body).toContain('<div id="root"></div>');
    expect(reply.body).not.toContain(FIRST_SCREEN_DATA_ID);
  });
});
