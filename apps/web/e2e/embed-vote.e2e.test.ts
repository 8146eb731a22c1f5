import { api, embedPath, type CreateQuestionBody, type Question } from '@pollscope/contract';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, FrameLocator, Page } from 'playwright-core';
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

describe.skipIf(!baseUrl).sequential('voting from an embed on another site', () => {
  let browser: Browser;
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
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
  });

  /** The host page in `context` (a browser profile), its embed showing the question. */
  async function openHostPage(context: BrowserContext): Promise<{ page: Page; embed: FrameLocator }> {
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`host page error: ${error.message}`));
    await page.goto(host.url);
    const embed = page.frameLocator('iframe');
    await embed.getByRole('heading', { name: poll.question }).waitFor();
    return { page, embed };
  }

  /**
   * Clicks a choice in the embed and hands back the window it opens, and when it closes: known from the moment it
   * opened, as a window with nothing to ask may close before the test's next step.
   */
  async function chooseInEmbed(
    page: Page,
    embed: FrameLocator,
    choice: string,
  ): Promise<{ popup: Page; closed: Promise<void> }> {
    const [popup] = await Promise.all([
      page.waitForEvent('popup'),
      embed.getByRole('button', { name: new RegExp(`^${choice}`) }).click(),
    ]);
    const closed = popup.isClosed()
      ? Promise.resolve()
      : new Promise<void>((resolve) => popup.once('close', () => resolve()));
    popup.on('pageerror', (error) => console.error(`window error: ${error.message}`));
    return { popup, closed };
  }

  /** What the embed shows once it knows the person's answer: their choice marked, the split, the count. */
  async function expectResultShown(embed: FrameLocator) {
    await embed.locator('.embed.answered').waitFor();
    const no = embed.getByRole('button', { name: /^No/ });
    expect(await no.getAttribute('aria-pressed')).toBe('true');
    expect(await no.textContent()).toBe('No Your answer100%');
    expect(await embed.getByRole('button', { name: /^Yes/ }).textContent()).toBe('Yes0%');
    expect(await embed.locator('.count').textContent()).toBe('1 vote');
  }

  /** Signs the voter in, in the app's window an embed opened. */
  async function signIn(popup: Page) {
    await popup.getByRole('button', { name: 'Log in' }).waitFor();
    await popup.getByLabel('Email').fill(voter.email);
    await popup.getByLabel('Password').fill(voter.password);
    await popup.getByRole('button', { name: 'Log in' }).click();
  }

  it('signs the person in, votes on their click alone, shows the embed the result, and votes once', async () => {
    const { page, embed } = await openHostPage(await browser.newContext());
    expect(await embed.locator('.count').textContent()).toBe('0 votes');
    expect(await embed.getByText('%').count()).toBe(0);
    const { popup, closed } = await chooseInEmbed(page, embed, 'No');

    // A visitor signs in first and comes back to the same question and answer.
    await signIn(popup);
    const confirm = popup.getByRole('button', { name: 'Confirm my vote' });
    await confirm.waitFor();
    expect(new URL(popup.url()).pathname).toBe(`/question/${question.id}`);
    expect(await popup.getByRole('radio', { name: 'No' }).isChecked()).toBe(true);
    expect(await votes()).toBe(0);

    await confirm.click();
    await closed;
    await expectResultShown(embed);
    expect(await votes()).toBe(1);

    // A second choice: the window, signed in already, finds the answer given and tells the embed, voting nothing.
    await (
      await chooseInEmbed(page, embed, 'Yes')
    ).closed;
    await expectResultShown(embed);
    expect(await votes()).toBe(1);
  });

  it('tells an embed that knows nothing of the person their answer given before, without a second vote', async () => {
    // Another browser: nothing kept in the embed's frame, nobody signed in to the app.
    const { page, embed } = await openHostPage(await browser.newContext());
    expect(await embed.locator('.embed.answered').count()).toBe(0);
    const { popup, closed } = await chooseInEmbed(page, embed, 'Yes');
    await signIn(popup);
    // Signed in, the window closes by itself: nothing for the person to confirm.
    await closed;
    await expectResultShown(embed);
    expect(await votes()).toBe(1);
  });

  it('lets a newcomer register in the window, and counts their vote once they confirm it', async () => {
    const { page, embed } = await openHostPage(await browser.newContext());
    const { popup, closed } = await chooseInEmbed(page, embed, 'Yes');
    await popup.getByRole('link', { name: 'Create an account' }).click();
    await popup.getByLabel('First name').fill('Ines');
    await popup.getByLabel('Birth date').fill('1995-06-30');
    await popup.getByLabel('Female', { exact: true }).check();
    await popup.getByLabel('Living in').selectOption({ label: 'Portugal' });
    await popup.getByLabel('Email').fill('ines@example.com');
    await popup.getByLabel('Password', { exact: true }).fill('ines-password');
    await popup.getByLabel('Confirm password').fill('ines-password');
    await popup.getByRole('button', { name: 'Sign up' }).click();

    const confirm = popup.getByRole('button', { name: 'Confirm my vote' });
    await confirm.waitFor();
    expect(await popup.getByRole('radio', { name: 'Yes' }).isChecked()).toBe(true);
    expect(await votes()).toBe(1);
    await confirm.click();
    await closed;
    await embed.locator('.embed.answered').waitFor();
    expect(await embed.getByRole('button', { name: /^Yes/ }).textContent()).toBe('Yes Your answer50%');
    expect(await embed.locator('.count').textContent()).toBe('2 votes');
    expect(await votes()).toBe(2);
  });
});
