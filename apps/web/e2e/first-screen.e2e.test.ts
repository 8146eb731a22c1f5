import { api, SESSION_COOKIE, type CreateQuestionBody, type Question } from '@pollscope/contract';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postAs, registerMember, type Member } from './support/api';
import { shoot } from './support/checks';
import { launchChromium } from './support/chromium';
import { sharedServerUrl } from './support/shared-server';

const baseUrl = sharedServerUrl();
const DESKTOP = { width: 1280, height: 900 };

const iris: Member = {
  firstName: 'Iris',
  email: 'iris@example.com',
  password: 'iris-password',
  gender: 'F',
  birthDate: '1994-02-11',
  country: 'Italy',
};
const jack: Member = {
  firstName: 'Jack',
  email: 'jack@example.com',
  password: 'jack-password',
  gender: 'M',
  birthDate: '1979-09-30',
  country: 'Canada',
};
const poll = {
  type: 'MC',
  question: 'Do you read the news before breakfast?',
  choices: ['Yes', 'No'],
} satisfies CreateQuestionBody;

/**
 * Notes, in the page, any loading indicator or empty list shown while the page loads, and whether
 * the feed's first card was there once the page was parsed, before any of the app's code had run.
 */
const watchLoad = `(() => {
  window.sawLoading = false;
  new MutationObserver(() => {
    if (document.querySelector('.loading, [aria-busy="true"], .skeleton')) window.sawLoading = true;
  }).observe(document, { childList: true, subtree: true });
  document.addEventListener('DOMContentLoaded', () => {
    window.cardWhenParsed = document.querySelector('article h2')?.textContent ?? null;
  });
})();`;

describe.skipIf(!baseUrl).sequential('the feed in the page', () => {
  let browser: Browser;
  let signedIn: BrowserContext;

  beforeAll(async () => {
    browser = await launchChromium();
    const { question } = await postAs<{ question: Question }>(
      baseUrl,
      await registerMember(baseUrl, jack),
      api.create,
      poll,
    );
    await postAs(baseUrl, await registerMember(baseUrl, iris), api.follow(question.user));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('comes in the page the server sends someone who signed in, with no script run', async () => {
    // Signed in through the form, as a person does: the app keeps the cookie the browser sends with the page.
    signedIn = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP });
    const page = await signedIn.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(iris.email);
    await page.getByLabel('Password').fill(iris.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('article', { name: poll.question }).waitFor();
    const cookie = (await signedIn.cookies()).find(({ name }) => name === SESSION_COOKIE);
    expect(cookie).toMatchObject({ path: '/', sameSite: 'Lax' });

    const noScript = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP, javaScriptEnabled: false });
    await noScript.addCookies([cookie!]);
    const bare = await noScript.newPage();
    await bare.goto('/');
    const card = bare.locator('article', { hasText: poll.question });
    expect(await card.locator('h2').textContent()).toBe(poll.question);
    expect(await card.locator('label').allTextContents()).toEqual(['Yes', 'No']);
    await shoot(bare, 'feed rendered by the server');
    await noScript.close();
  });

  it('is taken over by the app, with no loading screen between, and takes a vote', async () => {
    const page = await signedIn.newPage();
    await page.addInitScript({ content: watchLoad });
    await page.goto('/');
    const card = page.getByRole('article', { name: poll.question });
    // The card the server rendered is inert until the app's own replaces it: this waits for the app.
    await card.getByLabel('Yes', { exact: true }).check();
    // Read before voting: the Vote button is busy while its vote is under way, which is no loading screen.
    const seen = await page.evaluate(() => {
      const load = window as unknown as { sawLoading: boolean; cardWhenParsed: string | null };
      return { sawLoading: load.sawLoading, cardWhenParsed: load.cardWhenParsed };
    });
    expect(seen).toEqual({ sawLoading: false, cardWhenParsed: poll.question });
    await card.getByRole('button', { name: 'Vote' }).click();
    await card.getByRole('region', { name: 'Results' }).getByText('(your answer)').waitFor();
    // The app's code came after the page had loaded: its service worker starts all the same.
    expect(await page.evaluate(() => navigator.serviceWorker.ready.then((ready) => ready.active !== null))).toBe(true);
  });
});
