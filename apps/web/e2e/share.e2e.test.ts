import { api, displayId, type CreateQuestionBody, type Question } from '@pollscope/contract';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerAs, getQuiz, postAs, registerMember, type Member } from './support/api';
import { checkScreen } from './support/checks';
import { launchChromium } from './support/chromium';
import { sharedServerUrl } from './support/shared-server';

const baseUrl = sharedServerUrl();
const DESKTOP = { width: 1280, height: 900 };

const erin: Member = {
  firstName: 'Erin',
  email: 'erin@example.com',
  password: 'erin-password',
  gender: 'F',
  birthDate: '1988-07-21',
  country: 'Portugal',
};
const frank: Member = {
  firstName: 'Frank',
  email: 'frank@example.com',
  password: 'frank-password',
  gender: 'M',
  birthDate: '1992-01-05',
  country: 'Italy',
};
const poll = {
  type: 'MC',
  question: 'Should cities ban cars from their centres?',
  choices: ['Yes', 'No', 'Only at weekends'],
} satisfies CreateQuestionBody;

const path = (page: Page) => `${new URL(page.url()).pathname}${new URL(page.url()).search}`;

describe.skipIf(!baseUrl).sequential('a question shared outside the app', () => {
  let browser: Browser;
  let question: Question;
  let erinToken: string;

  beforeAll(async () => {
    browser = await launchChromium();
    erinToken = await registerMember(baseUrl, erin);
    ({ question } = await postAs<{ question: Question }>(baseUrl, erinToken, api.create, poll));
    // Two votes for "No": a result the page must not give away.
    for (const voter of ['voter-a', 'voter-b']) {
      const token = await registerMember(baseUrl, { ...frank, firstName: voter, email: `${voter}@example.com` });
      await answerAs(baseUrl, token, question.id, 2);
    }
  });

  afterAll(async () => {
    await browser?.close();
  });

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    return page;
  }

  it('opens for a visitor without an account, and leads through the quiz and sign-up to the question', async () => {
    const page = await newPage();
    await page.goto(`/q/${question.id}`);
    await page.getByRole('heading', { name: poll.question }).waitFor();
    for (const choice of poll.choices) await page.getByRole('listitem').getByText(choice, { exact: true }).waitFor();
    await page.getByText('2 votes').waitFor();
    await page.getByText('Asked by Erin').waitFor();
    expect(await page.locator('body').textContent()).not.toMatch(/\d\s*%/);
    expect(await page.locator('meta[name="twitter:card"]').getAttribute('content')).toBe('summary_large_image');
    const image = await page.locator('meta[property="og:image"]').getAttribute('content');
    expect(image).toMatch(new RegExp(`/api/polls/question/${question.id}/card\\.png\\?v=`));
    const png = await fetch(`${baseUrl}${new URL(image!).pathname}`);
    expect(png.headers.get('content-type')).toBe('image/png');
    await checkScreen(page, 'share page');

    await page.getByRole('link', { name: 'Answer this question' }).click();
    const quiz = await getQuiz(baseUrl);
    for (const [index, item] of quiz.entries()) {
      await page.getByRole('heading', { name: item.question.title }).waitFor();
      const choices = item.question.choices as { key: number; value: string }[];
      const right = choices.find((choice) => choice.key === item.answer) ?? choices[0];
      await page.getByLabel(right.value, { exact: true }).check();
      await page
        .getByRole('button', { name: index === quiz.length - 1 ? 'Next' : 'Next Question', exact: true })
        .click();
    }

    await page.getByRole('heading', { name: 'Join POLLSCOPE' }).waitFor();
    expect(path(page)).toBe(`/register?next=${encodeURIComponent(`/question/${question.id}`)}`);
    await page.getByLabel('First name').fill(frank.firstName);
    await page.getByLabel('Birth date').fill(frank.birthDate);
    await page.getByLabel('Male', { exact: true }).check();
    await page.getByLabel('Living in').selectOption({ label: frank.country });
    await page.getByLabel('Email').fill(frank.email);
    await page.getByLabel('Password', { exact: true }).fill(frank.password);
    await page.getByLabel('Confirm password').fill(frank.password);
    await page.getByRole('button', { name: 'Sign up' }).click();

    await page.getByRole('heading', { name: `Question ${displayId('QID', question.qid)}` }).waitFor();
    expect(path(page)).toBe(`/question/${question.id}`);
    const card = page.getByRole('article', { name: poll.question });
    await card.getByText('2 votes', { exact: true }).waitFor();
    await card.getByLabel('Only at weekends', { exact: true }).check();
    await card.getByRole('button', { name: 'Vote' }).click();
    await card.getByRole('region', { name: 'Results' }).getByText('(your answer)').waitFor();
    await card.getByText('3 votes', { exact: true }).waitFor();
  });

  it('copies the share link of a question, and sends a member who opens it straight to the question', async () => {
    const page = await newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/login');
    await page.getByLabel('Email').fill(erin.email);
    await page.getByLabel('Password').fill(erin.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: 'Settings' }).waitFor();

    await page.goto(`/question/${question.id}`);
    const card = page.getByRole('article', { name: poll.question });
    await card.getByRole('button', { name: 'Share' }).click();
    await card.getByRole('menuitem', { name: 'Copy link' }).click();
    await card.getByText('Link copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    // The server's public address: without PUBLIC_URL, a server on any free port takes the address it listens at.
    expect(link).toBe(`${baseUrl}/q/${question.id}`);

    await page.goto(`/q/${question.id}`);
    await page.getByRole('link', { name: 'Answer this question' }).click();
    await page.getByRole('heading', { name: `Question ${displayId('QID', question.qid)}` }).waitFor();
    expect(path(page)).toBe(`/question/${question.id}`);
  });
});
