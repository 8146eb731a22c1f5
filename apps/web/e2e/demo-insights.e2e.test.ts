import { api, displayId, type Question, type QuestionPage } from '@pollscope/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson } from './support/api';
import { checkScreen, shoot } from './support/checks';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/server';
import { sharedServerUrl } from './support/shared-server';

/**
 * The demo community a fresh install seeds (apps/server/src/seed/demo.ts): the other browser
 * tests run on a server without it, so this file starts one of its own with it, on its own fresh
 * database and port. The global setup's server only tells whether browser tests run here at all.
 */
const browserTests = sharedServerUrl() !== '';
const DEMO = { email: 'demo@pollscope.app', password: 'pollscope-demo' };
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };
/** A bar's text alternative ("Yes: 62% ± 5 points") or an average's ("Average 6.42 ± 0.31 on a scale of 1 to 10"). */
const GROUP_RESULT = /^(.+: \d+% ± \d+ points|Average [\d.]+ ± [\d.]+ on a scale of .+)$/;

/** Every question the signed-in person answered, a page at a time. */
async function answeredQuestions(baseUrl: string, token: string): Promise<Question[]> {
  const questions: Question[] = [];
  let cursor: string | null = null;
  do {
    const page: QuestionPage = await getJson<QuestionPage>(
      baseUrl,
      `${api.myAnswered}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      token,
    );
    questions.push(...page.questions);
    cursor = page.next;
  } while (cursor);
  return questions;
}

/** The list of one attribute's groups ("By gender"), under its heading. */
function split(page: Page, title: string): Locator {
  return page.getByRole('heading', { name: title, exact: true }).locator('xpath=ancestor::section[1]');
}

/** The groups of a split that show a result: each has a button named by its label and count. */
function shownGroups(page: Page, split: Locator): Locator {
  return split.getByRole('listitem').filter({ has: page.getByRole('button', { name: /voters/ }) });
}

/** How many results a group shows: a bar per choice, or one average. */
const resultsPerGroup = (question: Question) =>
  question.type === 'MC' && Array.isArray(question.choices) ? question.choices.length : 1;

describe.skipIf(!browserTests).sequential('the demo community', () => {
  let server: RunningServer;
  let browser: Browser;
  let page: Page;
  let mostAnswered: Question;
  let answered: Question[];

  beforeAll(async () => {
    // Seeding two thousand people and their votes takes a while on a slow machine.
    [server, browser] = await Promise.all([
      startServer({ seedDemo: true, startupTimeoutMs: 150_000 }),
      launchChromium(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows a gender split and an age split on its most answered question in a fresh start', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
    page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));

    await page.goto('/login');
    await page.getByLabel('Email').fill(DEMO.email);
    await page.getByLabel('Password').fill(DEMO.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: 'Settings' }).waitFor();
    const token = await page.evaluate(() => localStorage.getItem('pollscope.token'));
    expect(token).toBeTruthy();

    answered = (await answeredQuestions(server.baseUrl, token!)).sort((a, b) => b.vote_count - a.vote_count);
    mostAnswered = answered[0];
    expect(mostAnswered.vote_count).toBeGreaterThan(1_000);

    await page.goto(`/breakdown/${mostAnswered.id}`);
    await page.getByRole('heading', { name: mostAnswered.title }).waitFor();
    const results = resultsPerGroup(mostAnswered);

    // Both genders, each with its count and its percentages.
    const gender = split(page, 'By gender');
    await gender.waitFor();
    expect(await gender.getByText('Too few to show').count()).toBe(0);
    const genders = shownGroups(page, gender);
    expect(await genders.count()).toBe(2);
    for (const group of await genders.all()) {
      expect(await group.getByRole('button').textContent()).toMatch(/about [\d,]+ voters ± \d+/);
      expect(await group.getByRole('img', { name: GROUP_RESULT }).count()).toBe(results);
      if (mostAnswered.type === 'MC') expect(await group.getByText(/^\d+% ±\d+$/).count()).toBe(results);
    }

    // At least three age bands with theirs.
    const age = split(page, 'By age');
    const bands = shownGroups(page, age);
    expect(await bands.count()).toBeGreaterThanOrEqual(3);
    for (const band of await bands.all()) {
      expect(await band.getByRole('img', { name: GROUP_RESULT }).count()).toBe(results);
      if (mostAnswered.type === 'MC') expect(await band.getByText(/^\d+% ±\d+$/).count()).toBe(results);
    }
    await page.getByText('Voter counts carry privacy noise').waitFor();
    await shoot(page, 'breakdown');
    await checkScreen(page, 'breakdown (demo)');

    // Picking a group shows its result in full, as the Filter button does, and brings it into view far below.
    const resultTitle = page.getByRole('heading', { name: 'Filtered result' });
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.evaluate(() => window.scrollTo(0, 0));
      await genders.first().getByRole('button').click();
      await page
        .getByRole('region', { name: 'Filtered result' })
        .getByText(/votes match|Too few people match to show results/)
        .first()
        .waitFor();
      await expect
        .poll(() =>
          resultTitle.evaluate((element) => {
            const { top } = element.getBoundingClientRect();
            return top >= 0 && top < window.innerHeight / 2;
          }),
        )
        .toBe(true);
      await shoot(page, 'breakdown-picked', { viewports: [viewport], fullPage: false });
    }
    await page.setViewportSize(DESKTOP);
  });

  it('shows every choice of another question side by side in relate', async () => {
    const other = answered.find((question) => question.id !== mostAnswered.id && question.type === 'MC');
    expect(other).toBeDefined();
    await page.goto(`/relate/${mostAnswered.id}/${other!.id}/`);
    await page
      .getByRole('heading', {
        name: `Relate ${displayId('QID', mostAnswered.qid)} and ${displayId('QID', other!.qid)}`,
      })
      .waitFor();

    const sideBySide = page.getByRole('region', { name: 'Every choice side by side' });
    await sideBySide.waitFor();
    const choices = Array.isArray(other!.choices) ? other!.choices : [];
    for (const choice of choices) await sideBySide.getByText(choice.value, { exact: true }).first().waitFor();
    expect(await sideBySide.getByRole('img', { name: GROUP_RESULT }).count()).toBeGreaterThan(0);
    await shoot(page, 'relate');
    await checkScreen(page, 'relate (demo)');
  });
});
