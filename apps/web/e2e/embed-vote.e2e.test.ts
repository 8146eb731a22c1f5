import { api, embedPath, embedVotePath, type CreateQuestionBody, type Question } from '@pollscope/contract';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postAs, registerMember, type Member } from './support/api';
import { launchChromium } from './support/chromium';
import { sharedServerUrl } from './support/shared-server';

const baseUrl = sharedServerUrl();

const author: Member = {
  firstName: 'Greta',
  email: 'greta@example.com',
  password: 'greta-password',
  gender: 'F',
  birthDate: '1985-03-02',
  country: 'Portugal',
};
const voter: Member = {
  firstName: 'Hugo',
  email: 'hugo@example.com',
  password: 'hugo-password',
  gender: 'M',
  birthDate: '1990-11-12',
  country: 'Italy',
};
const poll = {
  type: 'MC',
  question: 'Should libraries open on Sundays?',
  choices: ['Yes', 'No'],
} satisfies CreateQuestionBody;

/**
 * Another site: a page of its own origin that frames the question's embed. The app listens on 127.0.0.1, this on
 * localhost, another host and so another site to the browser, as a blog framing the embed would be.
 */
async function startHostSite(questionId: number): Promise<{ url: string; close: () => Promise<void> }> {
  const src = `${baseUrl}${embedPath(questionId)}`;
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><title>A blog</title><h1>A blog</h1><iframe src="${src}" title="Poll" width="500" height="260"></iframe>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The embed's part, as the contract gives it: a choice opens the app's window (embedVotePath), and the message it posts
 * back, from the app's origin and for this question, shows the result.
 */
function standInEmbed(questionId: number): string {
  const votePath = (choice: number) => JSON.stringify(embedVotePath(questionId, choice));
  return `<!doctype html><meta charset="utf-8"><title>Embed</title>
<button type="button" onclick='open(${votePath(1)}, "pollscope-vote", "popup,width=480,height=640")'>Yes</button>
<button type="button" onclick='open(${votePath(2)}, "pollscope-vote", "popup,width=480,height=640")'>No</button>
<p id="result"></p>
<script>
addEventListener('message', (event) => {
  if (event.origin !== location.origin || event.data?.type !== 'pollscope:answered' || event.data.question_id !== ${questionId}) return;
  document.getElementById('result').textContent =
    'Your answer: ' + event.data.choice + '; ' + event.data.result.answers.map((answer) => answer.key + ': ' + answer.percent + '%').join(', ');
});
</script>`;
}

describe.skipIf(!baseUrl).sequential('voting from an embed on another site', () => {
  let browser: Browser;
  let context: BrowserContext;
  let question: Question;
  let authorToken: string;
  let host: Awaited<ReturnType<typeof startHostSite>>;

  const votes = async () => (await getJson<Question>(baseUrl, api.question(question.id), authorToken)).vote_count;

  beforeAll(async () => {
    browser = await launchChromium();
    authorToken = await registerMember(baseUrl, author);
    await registerMember(baseUrl, voter);
    ({ question } = await postAs<{ question: Question }>(baseUrl, authorToken, api.create, poll));
    host = await startHostSite(question.id);
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.route(`${baseUrl}${embedPath(question.id)}`, (route) =>
      route.fulfill({ contentType: 'text/html; charset=utf-8', body: standInEmbed(question.id) }),
    );
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
  });

  /** Clicks a choice in the embed on the host page and hands back the window it opens. */
  async function chooseInEmbed(page: Page, choice: string): Promise<Page> {
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      page.frameLocator('iframe').getByRole('button', { name: choice }).click(),
    ]);
    popup.on('pageerror', (error) => console.error(`window error: ${error.message}`));
    return popup;
  }

  it('signs the person in, votes on their click alone, and shows the embed the result', async () => {
    const page = await context.newPage();
    await page.goto(host.url);
    const popup = await chooseInEmbed(page, 'No');

    // A visitor signs in first and comes back to the same question and answer.
    await popup.getByRole('button', { name: 'Log in' }).waitFor();
    expect(new URL(popup.url()).searchParams.get('next')).toBe(`/question/${question.id}?answer=2`);
    await popup.getByLabel('Email').fill(voter.email);
    await popup.getByLabel('Password').fill(voter.password);
    await popup.getByRole('button', { name: 'Log in' }).click();

    const confirm = popup.getByRole('button', { name: 'Confirm my vote' });
    await confirm.waitFor();
    expect(await popup.getByRole('radio', { name: 'No' }).isChecked()).toBe(true);
    expect(await votes()).toBe(0);

    const closed = popup.waitForEvent('close');
    await confirm.click();
    await closed;
    await page.frameLocator('iframe').getByText('Your answer: 2; 1: 0%, 2: 100%').waitFor();
    expect(await votes()).toBe(1);
  });

  it('does not vote twice when the person chooses again', async () => {
    const page = await context.newPage();
    await page.goto(host.url);
    const popup = await chooseInEmbed(page, 'Yes');
    // Signed in already in the app's own window: it finds the answer given and tells the embed, voting nothing.
    await popup.waitForEvent('close');
    await page.frameLocator('iframe').getByText('Your answer: 2; 1: 0%, 2: 100%').waitFor();
    expect(await votes()).toBe(1);
  });
});
