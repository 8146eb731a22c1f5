import { api, displayId, type CreateQuestionBody, type Question } from '@pollscope/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postAs, registerMember, type Member } from './support/api';
import { checkScreen } from './support/checks';
import { launchChromium } from './support/chromium';
import { sharedServerUrl } from './support/shared-server';

const baseUrl = sharedServerUrl();
const DESKTOP = { width: 1280, height: 900 };

const carol: Member = {
  firstName: 'Carol',
  email: 'carol@example.com',
  password: 'carol-password',
  gender: 'F',
  birthDate: '1985-09-30',
  country: 'Spain',
};
const dan: Member = {
  firstName: 'Dan',
  email: 'dan@example.com',
  password: 'dan-password',
  gender: 'M',
  birthDate: '1979-02-11',
  country: 'Germany',
};
const poll = {
  type: 'MC',
  question: 'Should remote work stay the norm after the pandemic?',
  choices: ['Yes', 'No'],
} satisfies CreateQuestionBody;

/** The header's bell, by the name that tells how many are unread (none: just "Notifications"). */
const bell = (page: Page, unread = 0) =>
  page.getByRole('link', { name: unread > 0 ? `Notifications, ${unread} unread` : 'Notifications', exact: true });

describe.skipIf(!baseUrl).sequential('a member hears of a follow and a like', () => {
  let browser: Browser;
  let page: Page;
  let question: Question;
  let danToken: string;

  beforeAll(async () => {
    browser = await launchChromium();
    const carolToken = await registerMember(baseUrl, carol);
    danToken = await registerMember(baseUrl, dan);
    ({ question } = await postAs<{ question: Question }>(baseUrl, carolToken, api.create, poll));
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('raises the count on the bell without a reload', async () => {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP });
    page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto('/login');
    await page.getByLabel('Email').fill(carol.email);
    await page.getByLabel('Password').fill(carol.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await bell(page).waitFor();
    await page.evaluate(() => Object.assign(window, { openedBeforeTheNews: true }));

    await postAs(baseUrl, danToken, api.follow(question.user));
    await postAs(baseUrl, danToken, api.like(question.id));
    await bell(page, 2).waitFor({ timeout: 10_000 });
    expect(await bell(page, 2).textContent()).toBe('2');
    expect(await page.evaluate(() => 'openedBeforeTheNews' in window)).toBe(true);
  });

  it('tells both in words, newest first, and marks them read when asked', async () => {
    await bell(page, 2).click();
    await page.getByRole('heading', { name: 'Notifications', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/notifications');
    expect(await page.title()).toBe('Notifications · POLLSCOPE');

    const items = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem');
    const liked = items.first();
    await liked.getByText(`Dan liked ${displayId('QID', question.qid)} 'Should remote work stay the norm…'`).waitFor();
    await items.nth(1).getByText('Dan followed you').waitFor();
    expect(await items.count()).toBe(2);
    expect(await liked.getByRole('link', { name: /^QID/ }).getAttribute('href')).toBe(`/question/${question.id}`);
    expect(await liked.getByRole('link', { name: 'Dan' }).getAttribute('href')).toMatch(/^\/user\/\d+$/);
    expect(await page.getByText('Unread', { exact: true }).count()).toBe(2);
    await checkScreen(page, 'notifications');

    // Being shown them marked nothing read.
    await page.reload();
    await bell(page, 2).waitFor();
    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await bell(page).waitFor();
    expect(await page.getByText('Unread', { exact: true }).count()).toBe(0);
    // Still read when the count comes afresh from the server.
    const freshCount = page.waitForResponse(
      (response) =>
        new URL(response.url()).pathname === api.notificationsLive &&
        response.request().headers().accept === 'application/json',
    );
    await page.reload();
    expect(await (await freshCount).json()).toEqual({ unread: 0 });
    await items.first().waitFor();
    expect(await bell(page).count()).toBe(1);
    expect(await page.getByText('Unread', { exact: true }).count()).toBe(0);
  });
});
