import { accountExportSchema, api, type CreateQuestionBody, type Question } from '@pollscope/contract';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMailServer, type TestMailServer } from '../../server/src/test/mail-server';
import { postAs, registerMember, type Member } from './support/api';
import { checkScreen } from './support/checks';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/server';
import { sharedServerUrl } from './support/shared-server';

/**
 * This file starts a server of its own, which sends its mail to this file's mail server
 * (SMTP_URL); the global setup's server only tells whether browser tests run here at all.
 */
const browserTests = sharedServerUrl() !== '';
const DESKTOP = { width: 1280, height: 900 };

const erin: Member = {
  firstName: 'Erin',
  email: 'erin.leaving@example.com',
  password: 'erin-password',
  gender: 'F',
  birthDate: '1992-04-18',
  country: 'Ireland',
};
const NEW_PASSWORD = 'erin-new-password';
const poll = {
  type: 'MC',
  question: 'Is a forgotten password a sign of a good holiday?',
  choices: ['Yes', 'No'],
} satisfies CreateQuestionBody;

const path = (page: Page) => new URL(page.url()).pathname;

describe.skipIf(!browserTests).sequential('an account’s life, in the browser', () => {
  let server: RunningServer;
  let baseUrl: string;
  let browser: Browser;
  let mailbox: TestMailServer;
  let page: Page;
  let question: Question;

  beforeAll(async () => {
    mailbox = await startMailServer();
    [server, browser] = await Promise.all([startServer({ env: { SMTP_URL: mailbox.url } }), launchChromium()]);
    ({ baseUrl } = server);
    const token = await registerMember(baseUrl, erin);
    ({ question } = await postAs<{ question: Question }>(baseUrl, token, api.create, poll));
    await postAs(baseUrl, token, api.answer(question.id), { choice: 1 });
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP, acceptDownloads: true });
    page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox?.stop();
  });

  it('mails a link for a forgotten password, which sets a new one and signs in', async () => {
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { name: 'Forgot your password?' }).waitFor();
    expect(path(page)).toBe('/forgot-password');
    await checkScreen(page, 'forgot password');
    await page.getByLabel('Email').fill(erin.email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByText('If an account has this address, a link to choose a new password is on its way.').waitFor();

    const mail = await vi.waitFor(
      () => {
        const found = mailbox.received.find((received) => received.subject === 'Choose a new Pollscope password');
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 20_000, interval: 100 },
    );
    expect([mail.to].flat()[0]?.text).toBe(erin.email);
    const link = /(http:\/\/\S+\/reset-password\?token=[\w-]+)/.exec(mail.text ?? '')?.[1];
    expect(link, mail.text).toBeDefined();
    expect(link!.startsWith(`${baseUrl}/reset-password?token=`)).toBe(true);

    await page.goto(link!);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await checkScreen(page, 'new password');
    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel('Confirm password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Save and log in' }).click();
    await page.getByRole('link', { name: 'My account' }).waitFor();
    expect(path(page)).toBe('/');
  });

  it('downloads everything stored about the person', async () => {
    await page.getByRole('link', { name: 'My account' }).click();
    await page.getByRole('heading', { name: 'Your data' }).waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^pollscope-UID\d{3,}-\d{4}-\d{2}-\d{2}\.json$/);
    const data = accountExportSchema.parse(JSON.parse(fs.readFileSync((await download.path())!, 'utf8')));
    expect(data.account).toMatchObject({ email: erin.email, first_name: erin.firstName, birthdate: erin.birthDate });
    expect(data.questions.map((asked) => asked.title)).toEqual([poll.question]);
    expect(data.votes.map((vote) => [vote.question, vote.choice])).toEqual([[question.id, 1]]);
  });

  it('deletes the account, back on log-in, where the old password is refused', async () => {
    await checkScreen(page, 'personal info');
    const remove = page.getByRole('form', { name: 'Delete my account' });
    await remove.getByLabel('Password').fill(NEW_PASSWORD);
    await remove.getByRole('button', { name: 'Delete my account' }).click();
    await page.getByText('Type “delete my account” to confirm').waitFor();
    await remove.getByLabel('Type “delete my account”').fill('delete my account');
    await remove.getByRole('button', { name: 'Delete my account' }).click();

    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    expect(path(page)).toBe('/login');
    await page.getByText('Your account is deleted').waitFor();
    await checkScreen(page, 'log in after deletion');
    for (const password of [NEW_PASSWORD, erin.password]) {
      await page.getByLabel('Email').fill(erin.email);
      await page.getByLabel('Password').fill(password);
      const answer = page.waitForResponse((response) => new URL(response.url()).pathname === api.login);
      await page.getByRole('button', { name: 'Log in' }).click();
      expect((await answer).status()).toBe(400);
      await page.getByRole('alert').getByText('Wrong username or password!').waitFor();
    }
    // The question went with its author, for everyone.
    const someone = await registerMember(baseUrl, { ...erin, firstName: 'Finn', email: 'finn@example.com' });
    const reply = await fetch(`${baseUrl}${api.question(question.id)}`, {
      headers: { Authorization: `Token ${someone}` },
    });
    expect(reply.status).toBe(404);
  });
});
