import { api, displayId, type Account, type CreateQuestionBody, type Question } from '@pollscope/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startMailServer, type TestMailServer } from '../../server/src/test/mail-server';
import { getJson, postAs, registerMember, type Member } from './support/api';
import { checkScreen, shoot } from './support/checks';
import { launchChromium } from './support/chromium';
import { startServer, type RunningServer } from './support/server';
import { sharedServerUrl } from './support/shared-server';

/**
 * A member reports a question, an admin names a moderator, the moderator removes it, and then
 * nobody else sees it while its author sees it marked removed. This file starts a server of its
 * own, with an admin's address in ADMIN_EMAILS, which the admin proves by the mailed link; the
 * global setup's server only tells whether browser tests run here at all.
 */
const browserTests = sharedServerUrl() !== '';
const DESKTOP = { width: 1280, height: 900 };

const member = (firstName: string, birthDate: string): Member => ({
  firstName,
  email: `${firstName.toLowerCase()}@example.com`,
  password: `${firstName.toLowerCase()}-password`,
  gender: 'F',
  birthDate,
  country: 'Portugal',
});
const ada = member('Ada', '1986-03-02');
const ben = member('Ben', '1990-07-19');
const cy = member('Cy', '1979-11-05');
const mo = member('Mo', '1984-01-23');
const root = member('Root', '1975-05-30');
const dan = member('Dan', '1992-09-14');

const poll = {
  type: 'MC',
  question: 'Which phone should everyone buy today?',
  choices: ['Buy now at my shop', 'Later'],
} satisfies CreateQuestionBody;
const note = 'The choices link to a shop; the same question is posted every day.';
const removalReason = 'Advertising: questions are for opinions, not for selling.';
const suspensionReason = 'Spam in every question after a warning.';

describe.skipIf(!browserTests).sequential('a reported question, removed by a moderator', () => {
  let server: RunningServer;
  let browser: Browser;
  let mailbox: TestMailServer;
  let question: Question;
  const tokens = {} as Record<'ada' | 'ben' | 'cy' | 'mo' | 'root' | 'dan', string>;
  let cyPage: Page;

  async function signedIn(person: Member): Promise<Page> {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    await page.goto('/login');
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('link', { name: 'Settings' }).waitFor();
    return page;
  }

  const card = (page: Page): Locator => page.getByRole('article', { name: poll.question });
  const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement);

  beforeAll(async () => {
    mailbox = await startMailServer();
    [server, browser] = await Promise.all([
      startServer({ env: { ADMIN_EMAILS: root.email, SMTP_URL: mailbox.url } }),
      launchChromium(),
    ]);
    for (const [name, person] of Object.entries({ ada, ben, cy, mo, root, dan }))
      tokens[name as keyof typeof tokens] = await registerMember(server.baseUrl, person);
    // Registering an admin's address proves nothing: the link mailed to it does.
    const proof = await vi.waitFor(
      () => {
        const found = mailbox.received.find((mail) => [mail.to].flat()[0]?.text === root.email);
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 20_000, interval: 100 },
    );
    const token = /confirm-email\?token=([\w-]+)/.exec(proof.text ?? '')?.[1];
    await postAs(server.baseUrl, tokens.root, api.confirmEmail, { token });
    ({ question } = await postAs<{ question: Question }>(server.baseUrl, tokens.ada, api.create, poll));
    for (const follower of [tokens.ben, tokens.cy]) await postAs(server.baseUrl, follower, api.follow(question.user));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox?.stop();
  });

  it('lets a member report a question from its menu, by keyboard', async () => {
    const page = await signedIn(ben);
    await card(page).waitFor();
    const more = card(page).getByRole('button', { name: 'More actions' });
    await more.focus();
    await page.keyboard.press('Enter');
    const reportItem = page.getByRole('menuitem', { name: 'Report question' });
    await reportItem.waitFor();
    expect(await isFocused(reportItem)).toBe(true);
    await page.keyboard.press('Enter');

    const dialog = page.getByRole('dialog', { name: 'Report this question' });
    await dialog.waitFor();
    expect(await isFocused(dialog.getByRole('radio', { name: 'Spam' }))).toBe(true);
    // Tab goes round the dialog's own controls, never to the page behind it.
    for (let step = 0; step < 12; step += 1) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await isFocused(more)).toBe(true);

    await more.click();
    await reportItem.click();
    await dialog.waitFor();
    // Each reason names the rule it points to.
    expect(await dialog.getByRole('radio', { name: 'Spam' }).getAttribute('aria-describedby')).toBeTruthy();
    await dialog.getByText('Rule 1: No spam').waitFor();
    await checkScreen(page, 'report dialog');
    await shoot(page, 'report-dialog', { fullPage: false });

    await dialog.getByRole('button', { name: 'Send report' }).click();
    await dialog.getByText('Choose what is wrong.').waitFor();
    await dialog.getByRole('radio', { name: 'Spam' }).check();
    await dialog.getByLabel('Note for the moderators (optional)').fill(note);
    await dialog.getByRole('button', { name: 'Send report' }).click();
    const thanks = page.getByRole('dialog', { name: 'Thanks for telling us' });
    await thanks.getByText('is with the moderators').waitFor();
    await shoot(page, 'report-sent', { fullPage: false });
    await thanks.getByRole('button', { name: 'Done' }).click();
    await thanks.waitFor({ state: 'detached' });
    expect(await isFocused(more)).toBe(true);

    await page.goto('/reports');
    await page.getByRole('list', { name: 'Your reports' }).getByText('Open', { exact: true }).waitFor();
    await page.context().close();
  });

  it('shows a third person the question before anything is decided', async () => {
    cyPage = await signedIn(cy);
    await card(cyPage).waitFor();
  });

  it('lets an admin make a member a moderator', async () => {
    const page = await signedIn(root);
    const shield = page.getByRole('link', { name: 'Moderation, 1 open report' });
    await shield.waitFor();
    await page.goto('/moderation/people');
    const { id: moId } = await getJson<Account>(server.baseUrl, api.account, tokens.mo);
    await page.getByLabel('Person').fill(displayId('UID', moId));
    await page.getByLabel('Role').selectOption('moderator');
    await page.getByRole('button', { name: 'Set role' }).click();
    await page.getByText(`${displayId('UID', moId)} is now a moderator.`).waitFor();
    await shoot(page, 'moderation-people');
    await page.context().close();
  });

  it('lets the moderator see the report as people saw it, and remove the question', async () => {
    const page = await signedIn(mo);
    await page.getByRole('link', { name: 'Moderation, 1 open report' }).click();
    await page.getByRole('heading', { name: 'Moderation', exact: true }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/moderation');

    const entry = page.getByRole('article', { name: `${poll.question}: Reported by 1 person` });
    await entry.waitFor();
    await entry
      .getByRole('list', { name: 'Reasons' })
      .getByRole('link', { name: /^Spam ?: 1$/ })
      .waitFor();
    await entry.getByText(note).waitFor();
    await card(page).getByText(displayId('QID', question.qid)).waitFor();
    await checkScreen(page, 'moderation');
    await shoot(page, 'moderation');

    await entry.getByRole('button', { name: 'Remove' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this question' });
    await dialog.getByLabel('Reason').fill(removalReason);
    await shoot(page, 'moderation-remove', { fullPage: false });
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await page.getByRole('status').getByText(`Removed “${poll.question}”.`).waitFor();
    await page.getByText('No open reports').waitFor();
    await page.getByRole('link', { name: 'Moderation', exact: true }).waitFor();

    await page.getByRole('link', { name: 'Closed' }).click();
    await entry.getByRole('button', { name: 'Restore' }).waitFor();
    await page.getByRole('link', { name: 'Log' }).click();
    const log = page.getByRole('list', { name: 'Moderation log' });
    await log.getByText(`Mo removed question ${displayId('QID', question.qid)}`).waitFor();
    await log.getByText(removalReason).waitFor();
    await checkScreen(page, 'moderation log');
    await shoot(page, 'moderation-log');
    await page.context().close();
  });

  it('hides it from everyone else: the feed and its page', async () => {
    await cyPage.reload();
    await cyPage.getByText('No question exist from your connections!').waitFor();
    expect(await card(cyPage).count()).toBe(0);
    await cyPage.goto(`/question/${question.id}`);
    await cyPage.getByRole('alert').waitFor();
    expect(await cyPage.getByText(poll.question).count()).toBe(0);
    await cyPage.context().close();
  });

  it('shows its author it was removed, and why', async () => {
    const page = await signedIn(ada);
    await page.goto('/wall');
    await card(page).getByText('Removed by a moderator').waitFor();
    await card(page).getByText(`Reason: ${removalReason}`).waitFor();
    await shoot(page, 'removed-on-wall', { fullPage: false });

    // Ben and Cy followed her too: those are unread as well.
    await page.getByRole('link', { name: /^Notifications, \d+ unread$/ }).click();
    const item = page.getByRole('list', { name: 'Notifications' }).getByRole('listitem').first();
    await item.getByText(/^A moderator removed your question QID\d+ 'Which phone should everyone buy…'$/).waitFor();
    await item.getByText(`Reason: ${removalReason}`).waitFor();
    expect(await item.getByRole('link', { name: /^QID/ }).getAttribute('href')).toBe(`/question/${question.id}`);
    await shoot(page, 'moderation-notification', { fullPage: false });
    await page.context().close();
  });

  it('tells the reporter that action was taken', async () => {
    const page = await signedIn(ben);
    await page.goto('/reports');
    await page.getByRole('list', { name: 'Your reports' }).getByText('Action taken', { exact: true }).waitFor();
    await checkScreen(page, 'your reports');
    await shoot(page, 'my-reports', { fullPage: false });

    // A person is reported from their profile.
    await page.goto(`/user/${question.user}`);
    const report = page.getByRole('button', { name: 'Report' });
    await report.click();
    await page.getByRole('dialog', { name: 'Report Ada' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect(await isFocused(report)).toBe(true);
    await shoot(page, 'profile-report', { fullPage: false });
    await page.context().close();
  });

  it('tells a suspended person on the sign-in form why, and until when', async () => {
    const { id: danId } = await getJson<Account>(server.baseUrl, api.account, tokens.dan);
    const until = new Date(Date.now() + 7 * 24 * 3600 * 1000).toISOString();
    await postAs(server.baseUrl, tokens.root, api.moderationActions, {
      target: 'user',
      id: danId,
      action: 'suspend',
      reason: suspensionReason,
      until,
    });

    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Email').fill(dan.email);
    await page.getByLabel('Password').fill(dan.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    const alert = page.getByRole('alert');
    await alert.getByText(suspensionReason, { exact: false }).waitFor();
    expect(await alert.textContent()).toMatch(/suspended until \d+ \w+ \d{4}/);
    await shoot(page, 'login-suspended', { fullPage: false });
    await context.close();
  });

  it('states the community rules, each under the anchor a reason points to', async () => {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto('/rules#hate');
    await page.getByRole('heading', { name: 'Community rules', level: 1 }).waitFor();
    const hate = page.locator('#hate');
    await hate.getByRole('heading', { name: 'Rule 3: No hate' }).waitFor();
    await expect.poll(() => isFocused(hate)).toBe(true);
    await checkScreen(page, 'rules');
    await page.goto('/rules');
    await page.getByRole('heading', { name: 'Community rules', level: 1 }).waitFor();
    await shoot(page, 'rules');
    await context.close();
  });
});
