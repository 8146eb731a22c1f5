/**
 * How long a signed-in person waits for the first card of their feed, against how long the same
 * browser takes to show a question's server-rendered share page (`/q/{id}`): each the median of
 * cold loads (a fresh browser context, so nothing cached), measured in one run on one server.
 *
 *   npx tsx scripts/first-card.ts [--loads 7] [--dist <a build to serve>]
 *
 * Without --dist it builds the app into a folder of its own first. Both pages are timed the same
 * way, to the first frame that has an `<article>` in it (the feed's first question card, the share
 * page's card): from when the browser is told to go to the page, as a person waits, and from the
 * start of the navigation in the page (what the browser spends before it, such as starting the
 * new context's page, left out). The waterfall is the median of each step of the feed's loads,
 * from the browser's resource timing, in ms since the navigation started.
 */
import { api, SESSION_COOKIE, type CreateQuestionBody, type Question } from '@pollscope/contract';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { postAs, registerMember, type Member } from '../e2e/support/api';
import { launchChromium } from '../e2e/support/chromium';
import { startServer, webDir } from '../e2e/support/server';

const { values: options } = parseArgs({
  options: { loads: { type: 'string', default: '7' }, dist: { type: 'string' } },
});
const LOADS = Number(options.loads);
const VIEWPORT = { width: 1280, height: 900 };
const TOKEN_KEY = 'pollscope.token';

const author: Member = {
  firstName: 'Ada',
  email: 'ada@example.com',
  password: 'ada-password',
  gender: 'F',
  birthDate: '1985-03-02',
  country: 'France',
};
const reader: Member = {
  firstName: 'Ben',
  email: 'ben@example.com',
  password: 'ben-password',
  gender: 'M',
  birthDate: '1990-11-20',
  country: 'Spain',
};

/** One step of a load: when it started and ended, in ms since the navigation started. */
interface Step {
  start: number;
  end: number;
}

/**
 * What one load saw: when the first card was in a frame, from the request and from the navigation's start, and its
 * requests by what they were.
 */
interface Load {
  asked: number;
  card: number;
  steps: Record<string, Step>;
}

/**
 * Records, in the page, the first frame that has an `<article>`: the card is on screen from that
 * frame on. Source text rather than a function, which tsx would compile with helpers the page lacks.
 */
const watchForFirstCard = `(() => {
  const tick = () => {
    if (document.querySelector('article')) window.firstCard = performance.now();
    else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

/**
 * Names each request of a load by what it is for the waterfall: the page, its scripts and styles, and its API calls.
 */
function stepName(url: string): string | null {
  const { pathname } = new URL(url);
  if (pathname.startsWith('/api/')) return pathname;
  const asset = /^\/assets\/(.+)-[\w-]{8}\.(js|css)$/.exec(pathname);
  return asset ? `${asset[1]}.${asset[2]}` : null;
}

async function timeLoad(browser: Browser, url: string, token?: string): Promise<Load> {
  const context = await browser.newContext({ viewport: VIEWPORT });
  // As the app keeps a signed-in person's token: in its storage, and in the cookie the browser sends with the page.
  if (token) {
    await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [TOKEN_KEY, token]);
    await context.addCookies([{ name: SESSION_COOKIE, value: token, url }]);
  }
  await context.addInitScript({ content: watchForFirstCard });
  const page = await context.newPage();
  const asked = Date.now();
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => (window as unknown as { firstCard?: number }).firstCard !== undefined);
  const timing = await page.evaluate(() => ({
    origin: performance.timeOrigin,
    card: (window as unknown as { firstCard: number }).firstCard,
    navigation: performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming,
    firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    resources: (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).map(
      ({ name, startTime, responseEnd }) => ({ name, startTime, responseEnd }),
    ),
  }));
  await context.close();
  const steps: Record<string, Step> = {
    HTML: { start: timing.navigation.requestStart, end: timing.navigation.responseEnd },
    'page parsed, scripts run': {
      start: timing.navigation.responseEnd,
      end: timing.navigation.domContentLoadedEventEnd,
    },
  };
  if (timing.firstPaint !== undefined) steps['first paint'] = { start: timing.firstPaint, end: timing.firstPaint };
  for (const resource of timing.resources) {
    const name = stepName(resource.name);
    // The first request of each name: a stream opened later or a request repeated is not on the way to the card.
    if (name && !steps[name] && resource.startTime < timing.card)
      steps[name] = { start: resource.startTime, end: resource.responseEnd };
  }
  return { asked: timing.origin + timing.card - asked, card: timing.card, steps };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value: number) => `${Math.round(value)} ms`;

async function main() {
  let dist = options.dist;
  if (!dist) {
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'pollscope-first-card-'));
    const vite = path.join(path.dirname(createRequire(import.meta.url).resolve('vite/package.json')), 'bin/vite.js');
    execFileSync(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', dist, '--emptyOutDir'], {
      cwd: webDir,
      env: { ...process.env, NODE_ENV: 'production' },
      stdio: 'inherit',
    });
  }
  const server = await startServer({ webDist: dist });
  const browser = await launchChromium();
  try {
    const { baseUrl } = server;
    const authorToken = await registerMember(baseUrl, author);
    const questions: Question[] = [];
    for (let index = 1; index <= 12; index += 1) {
      const body = {
        type: 'MC',
        question: `Which season do you like best, take ${index}?`,
        choices: ['Spring', 'Summer', 'Autumn', 'Winter'],
      } satisfies CreateQuestionBody;
      questions.push((await postAs<{ question: Question }>(baseUrl, authorToken, api.create, body)).question);
    }
    const readerToken = await registerMember(baseUrl, reader);
    await postAs(baseUrl, readerToken, api.follow(questions[0].user));
    const sharePage = `${baseUrl}/q/${questions[0].id}`;

    // One of each first, not counted: the server's first answers build what it keeps in memory.
    await timeLoad(browser, sharePage);
    await timeLoad(browser, `${baseUrl}/`, readerToken);
    const shares: Load[] = [];
    const feeds: Load[] = [];
    for (let load = 0; load < LOADS; load += 1) {
      shares.push(await timeLoad(browser, sharePage));
      feeds.push(await timeLoad(browser, `${baseUrl}/`, readerToken));
    }

    for (const [measure, name] of [
      ['asked', 'from the request to go there'],
      ['card', 'from the navigation’s start'],
    ] as const) {
      const share = median(shares.map((load) => load[measure]));
      const feed = median(feeds.map((load) => load[measure]));
      const all = (loads: Load[]) => loads.map((load) => Math.round(load[measure])).join(', ');
      console.log(`\n${name}:`);
      console.log(`  share page /q/{id}: ${ms(share)} (median of ${LOADS}: ${all(shares)})`);
      console.log(`  first feed card:    ${ms(feed)} (median of ${LOADS}: ${all(feeds)})`);
      console.log(`  ratio:              ${(feed / share).toFixed(2)}× (target ≤ 2×)`);
    }
    console.log('\nthe feed’s waterfall (medians, ms since the navigation started):');
    const names = [...new Set(feeds.flatMap((load) => Object.keys(load.steps)))];
    const rows = names
      .map((name) => {
        const seen = feeds.flatMap((load) => (load.steps[name] ? [load.steps[name]] : []));
        return {
          name,
          start: median(seen.map((step) => step.start)),
          end: median(seen.map((step) => step.end)),
          seen: seen.length,
        };
      })
      .sort((a, b) => a.start - b.start);
    for (const row of rows)
      console.log(
        `  ${row.name.padEnd(36)} ${String(Math.round(row.start)).padStart(5)} → ${String(Math.round(row.end)).padStart(5)}${row.seen < LOADS ? `  (in ${row.seen} of ${LOADS})` : ''}`,
      );
    console.log(
      `  ${'first card in a frame'.padEnd(36)} ${String(Math.round(median(feeds.map((load) => load.card)))).padStart(13)}`,
    );
  } finally {
    await browser.close();
    await server.stop();
    if (!options.dist) fs.rmSync(dist, { recursive: true, force: true });
  }
}

await main();
