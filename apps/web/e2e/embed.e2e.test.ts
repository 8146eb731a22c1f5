import {
  api,
  embedHeight,
  embedPath,
  OEMBED_PATH,
  oembedResponseSchema,
  type EmbedAnsweredMessage,
  type Question,
} from '@pollscope/contract';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { chromium, type Browser, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerAs, getJson, postAs, registerMember, type Member } from './support/api';
import { CHROMIUM_PATH, launchChromium } from './support/chromium';
import { sharedServerUrl } from './support/shared-server';

const baseUrl = sharedServerUrl();
/** Where the screenshots of the embed go, each width in light and dark. */
const SHOTS_DIR = process.env.EMBED_SHOTS_DIR || '/tmp/embed-shots';

const member = (firstName: string): Member => ({
  firstName,
  email: `${firstName.toLowerCase()}-embed@example.com`,
  password: 'embed-password',
  gender: 'F',
  birthDate: '1990-03-04',
  country: 'Portugal',
});

/**
 * Another site: pages of a server of its own, on the other name of this machine (127.0.0.1 for localhost and the other
 * way round), so that the browser takes it for another origin. Each page frames the address given in `?src=`, sized as
 * given, and counts the frame's loads, the refused ones too.
 */
async function startOtherSite(): Promise<{ origin: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://host').searchParams;
    const attribute = (name: string) => (query.get(name) ?? '').replace(/[&"<>]/g, '');
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><head><title>A blog</title></head>
<body style="margin:0"><iframe name="framed" src="${attribute('src')}" width="${attribute('width') || 500}" height="${attribute('height') || 400}" style="border:0" onload="window.loads = (window.loads || 0) + 1"></iframe></body></html>`);
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const { port } = server.address() as AddressInfo;
  const host = new URL(baseUrl).hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  return {
    origin: `http://${host}:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * Chromium as most people run Chrome, letting framed sites keep their data (partitioned by the site framing them). This
 * build blocks it by default, as Chrome's "Block third-party cookies" does, where the embed forgets the answer on reload.
 */
const launchChromiumKeepingFramedData = () =>
  chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ['--no-sandbox', '--disable-gpu', '--disable-features=TrackingProtection3pcd'],
  });

describe.skipIf(!baseUrl).sequential('a question framed on another site', () => {
  let browser: Browser;
  let keepingBrowser: Browser;
  let otherSite: Awaited<ReturnType<typeof startOtherSite>>;
  let question: Question;
  let rating: Question;
  let number: Question;
  const voters: string[] = [];

  beforeAll(async () => {
    fs.mkdirSync(SHOTS_DIR, { recursive: true });
    browser = await launchChromium();
    keepingBrowser = await launchChromiumKeepingFramedData();
    otherSite = await startOtherSite();
    const author = await registerMember(baseUrl, member('Ada'));
    ({ question } = await postAs<{ question: Question }>(baseUrl, author, api.create, {
      type: 'MC',
      question: 'Which season do you like best?',
      choices: ['Spring', 'Summer', 'Autumn', 'Winter'],
    }));
    ({ question: rating } = await postAs<{ question: Question }>(baseUrl, author, api.create, {
      type: 'RS',
      question: 'How much do you like rain?',
      choices: [],
    }));
    ({ question: number } = await postAs<{ question: Question }>(baseUrl, author, api.create, {
      type: 'N',
      question: 'How many cups of tea do you drink a day?',
      choices: ['0', '20'],
    }));
    for (const name of ['Bea', 'Cleo', 'Dora']) voters.push(await registerMember(baseUrl, member(name)));
    await answerAs(baseUrl, voters[0], question.id, 2);
    await answerAs(baseUrl, voters[1], question.id, 2);
  });

  afterAll(async () => {
    await browser?.close();
    await keepingBrowser?.close();
    await otherSite?.close();
  });

  /** The other site's page framing `src`, in a browser of its own, at `width` (the frame's height is the embed's). */
  async function frameOnOtherSite(
    src: string,
    {
      width = 500,
      height = 400,
      colorScheme = 'light' as 'light' | 'dark',
      locale = 'en-GB',
      inBrowser = browser,
    } = {},
  ): Promise<{ page: Page; frame: Frame }> {
    const context = await inBrowser.newContext({ viewport: { width, height }, colorScheme, locale });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    const query = new URLSearchParams({ src, width: String(width), height: String(height) });
    await page.goto(`${otherSite.origin}/?${query}`);
    await page.waitForFunction(() => (window as { loads?: number }).loads === 1);
    return { page, frame: page.frame({ name: 'framed' })! };
  }

  const embedOf = (id: number) => `${baseUrl}${embedPath(id)}`;

  it('shows the question, its choices and the vote count, which follows the votes as they land', async () => {
    const { page, frame } = await frameOnOtherSite(embedOf(question.id));
    expect(new URL(frame.url()).origin).toBe(new URL(baseUrl).origin);
    await frame.getByRole('heading', { name: 'Which season do you like best?' }).waitFor();
    for (const choice of ['Spring', 'Summer', 'Autumn', 'Winter'])
      expect(await frame.getByRole('button', { name: choice }).isVisible()).toBe(true);
    await frame.locator('.embed.live').waitFor();
    expect(await frame.locator('.count').textContent()).toBe('2 votes');
    // Nothing of how they split before voting.
    expect(await frame.locator('main').textContent()).not.toMatch(/%/);

    await answerAs(baseUrl, voters[2], question.id, 1);
    await frame.waitForFunction(() => document.querySelector('.count')?.textContent === '3 votes');
    expect(await frame.getByRole('link', { name: 'Pollscope' }).getAttribute('href')).toBe(
      `${baseUrl}/q/${question.id}`,
    );
    await page.context().close();
  });

  it('shows the result the app’s window sends, and only from the app’s origin, and marks it again after a reload', async () => {
    const { page, frame } = await frameOnOtherSite(embedOf(question.id), {
      width: 300,
      height: embedHeight('MC', 4),
      inBrowser: keepingBrowser,
    });
    await frame.locator('.embed.live').waitFor();
    const result = (await getJson<Question>(baseUrl, api.question(question.id), voters[0])).result!;
    const answered: EmbedAnsweredMessage = { type: 'pollscope:answered', question_id: question.id, choice: 2, result };
    // The host page, another origin, cannot make the frame show a result; nor can a message for another question. The
    // app's own origin can: the frame then holds the one message it took.
    await page.evaluate((data) => window.frames[0].postMessage(data, '*'), answered);
    await frame.evaluate(
      ([data, other]) => {
        window.postMessage(other, location.origin);
        window.postMessage(data, location.origin);
      },
      [answered, { ...answered, question_id: question.id + 1000, choice: 1 }] as const,
    );
    await frame.locator('.embed.answered').waitFor();
    const summer = frame.getByRole('button', { name: /Summer/ });
    expect(await summer.getAttribute('aria-pressed')).toBe('true');
    expect(await summer.textContent()).toBe('Summer Your answer67%');
    expect(await frame.getByRole('button', { name: /Spring/ }).textContent()).toBe('Spring33%');
    expect(await frame.locator('.count').textContent()).toBe('3 votes');
    await page.screenshot({ path: path.join(SHOTS_DIR, 'answered-300-light.png') });

    await frame.goto(embedOf(question.id));
    await frame.locator('.embed.answered').waitFor();
    expect(await frame.getByRole('button', { name: /Summer/ }).getAttribute('aria-pressed')).toBe('true');
    await page.context().close();
  });

  it('says the question is not available once it is gone, while the page is open', async () => {
    const asker = member('Esme');
    const token = await registerMember(baseUrl, asker);
    const { question: doomed } = await postAs<{ question: Question }>(baseUrl, token, api.create, {
      type: 'MC',
      question: 'Will this question last?',
      choices: ['Yes', 'No'],
    });
    const { page, frame } = await frameOnOtherSite(embedOf(doomed.id));
    await frame.locator('.embed.live').waitFor();
    // Its asker deletes their account, and their questions with it.
    const deleted = await fetch(`${baseUrl}${api.deleteAccount}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Token ${token}` },
      body: JSON.stringify({ password: asker.password }),
    });
    expect(deleted.status).toBe(204);
    await frame.getByText('This question is not available').waitFor();
    expect(await frame.getByRole('button').count()).toBe(0);
    await page.context().close();
  });

  it('is refused by the browser anywhere but /embed/', async () => {
    for (const path of [`/q/${question.id}`, '/', `/question/${question.id}`]) {
      const { page, frame } = await frameOnOtherSite(`${baseUrl}${path}`);
      // Chromium shows its own error page in place of a page whose policy refuses the frame.
      expect(frame.url(), path).toMatch(/^chrome-error:/);
      await page.context().close();
    }
  });

  it('is what oEmbed hands a consumer, sized for the question', async () => {
    const pageUrl = encodeURIComponent(`${baseUrl}/q/${rating.id}`);
    const oembed = oembedResponseSchema.parse(await getJson(baseUrl, `${OEMBED_PATH}?url=${pageUrl}`));
    expect(oembed.height).toBe(embedHeight('RS', 0));
    expect(oembed.html).toContain(`src="${embedOf(rating.id)}"`);
  });

  for (const [name, type] of [
    ['choices', 'MC'],
    ['rating', 'RS'],
    ['number', 'N'],
  ] as const) {
    it(`fits ${name} from 300 px wide up, light and dark (screenshots)`, async () => {
      const shown = { MC: question, RS: rating, N: number }[type];
      const height = embedHeight(type, Array.isArray(shown.choices) ? shown.choices.length : 0);
      for (const width of [300, 500, 700]) {
        for (const colorScheme of ['light', 'dark'] as const) {
          const { page, frame } = await frameOnOtherSite(embedOf(shown.id), { width, height, colorScheme });
          await frame.locator('.embed.live').waitFor();
          // Nothing wider than the frame, nothing below its bottom edge.
          const overflow = await frame.evaluate(() => ({
            wide: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            tall: document.documentElement.scrollHeight - document.documentElement.clientHeight,
          }));
          expect(overflow, `${name} at ${width} px, ${colorScheme}`).toEqual({ wide: 0, tall: 0 });
          await page.screenshot({ path: path.join(SHOTS_DIR, `${name}-${width}-${colorScheme}.png`) });
          await page.context().close();
        }
      }
    });
  }

  it('is laid out right to left in Arabic', async () => {
    const { page, frame } = await frameOnOtherSite(embedOf(question.id), {
      width: 300,
      height: embedHeight('MC', 4),
      locale: 'ar',
    });
    await frame.locator('.embed.live').waitFor();
    expect(await frame.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual([
      'ar',
      'rtl',
    ]);
    await page.screenshot({ path: path.join(SHOTS_DIR, 'choices-300-ar.png') });
    await page.context().close();
  });
});
