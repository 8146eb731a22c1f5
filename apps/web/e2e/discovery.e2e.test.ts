import { api } from '@pollscope/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerAs, postAs, registerMember, type Member } from './support/api';
import { checkScreen } from './support/checks';
import { launchChromium } from './support/chromium';
import { sharedServerUrl } from './support/shared-server';

const baseUrl = sharedServerUrl();
const DESKTOP = { width: 1280, height: 900 };

const asker: Member = {
  firstName: 'Quentin',
  email: 'quentin@discovery.example.com',
  password: 'quentin-password',
  gender: 'M',
  birthDate: '1985-09-09',
  country: 'Canada',
};
const newcomer: Member = {
  firstName: 'Nora',
  email: 'nora@discovery.example.com',
  password: 'nora-password',
  gender: 'F',
  birthDate: '1999-01-20',
  country: 'Norway',
};
const question = { title: 'Will hybrid remote work outlast the decade?', choices: ['Yes', 'No'] };

const path = (page: Page) => new URL(page.url()).pathname;

describe.skipIf(!baseUrl).sequential('a newcomer finds people and questions', () => {
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    browser = await launchChromium();
    const askerToken = await registerMember(baseUrl, asker);
    const { question: asked } = await postAs<{ question: { id: number } }>(baseUrl, askerToken, api.create, {
      type: 'MC',
      question: question.title,
      choices: question.choices,
      tags: ['work'],
    });
    // The newcomer answered the asker's question (as one does from a shared link): a reason to suggest them.
    const newcomerToken = await registerMember(baseUrl, newcomer);
    await answerAs(baseUrl, newcomerToken, asked.id, 1);

    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP });
    page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto('/login');
    await page.evaluate((token) => localStorage.setItem('pollscope.token', token), newcomerToken);
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('follows a person suggested under the empty feed, and the feed fills', async () => {
    await page.goto('/');
    await page.getByText('No question exist from your connections!').waitFor();
    const suggested = page.getByRole('list', { name: 'Suggested people' });
    const quentin = suggested.getByRole('listitem').filter({ has: page.getByRole('link', { name: asker.firstName }) });
    await quentin.getByText('You answered one of their questions').waitFor();
    await checkScreen(page, 'empty feed with people to follow');

    await quentin.getByRole('button', { name: 'Connect' }).click();
    await page.getByRole('article', { name: question.title }).waitFor();
    expect(await page.getByText('No question exist from your connections!').count()).toBe(0);
  });

  it('searches from the header, by the start of a word, with questions and people as tabs', async () => {
    await page.getByRole('searchbox', { name: 'Search' }).fill('HYBRID remot');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Search' }).waitFor();
    expect(path(page)).toBe('/search');
    const found = page.getByRole('region', { name: 'Questions found' });
    await found.getByRole('article', { name: question.title }).waitFor();
    await checkScreen(page, 'search');

    await page.getByRole('link', { name: 'People', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill('quen');
    const people = page.getByRole('list', { name: 'People found' });
    await people.getByRole('link', { name: asker.firstName }).waitFor();
    expect(path(page)).toBe('/search/people');
    expect(await people.getByRole('button', { name: 'Connected' }).count()).toBe(1);
    await checkScreen(page, 'search for people');
  });

  it('shows what is trending as the first tab of the category bar', async () => {
    await page.getByRole('link', { name: 'POLLSCOPE home' }).click();
    await page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Trending' }).click();
    await page.getByRole('heading', { name: 'Trending' }).waitFor();
    await page.getByRole('article', { name: question.title }).waitFor();
    await checkScreen(page, 'trending');
  });
});
