import { api, displayId, type SiteStats, type Stats } from '@pollscope/contract';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerAs, getJson, getQuiz, registerMember, type Member } from './support/api';
import { checkScreen } from './support/checks';
import { launchChromium } from './support/chromium';
import { sharedServerUrl } from './support/shared-server';

const baseUrl = sharedServerUrl();
const DESKTOP = { width: 1280, height: 900 };

/** A birth date that makes someone `age` all through this year, as breakdowns count ages. */
const bornAged = (age: number, monthAndDay = '03-15') => `${new Date().getUTCFullYear() - age}-${monthAndDay}`;

const alice: Member = {
  firstName: 'Alice',
  email: 'alice@example.com',
  password: 'alice-password',
  gender: 'F',
  birthDate: '1990-04-12',
  country: 'France',
};
const bob: Member = {
  firstName: 'Bob',
  email: 'bob@example.com',
  password: 'bob-password',
  gender: 'M',
  birthDate: bornAged(40, '06-01'),
  country: 'Ireland',
};

/**
 * Other members who vote through the API, everyone of Bob's age band (35 to 44), men and women
 * split evenly. Breakdown and relate count groups narrower than everyone with privacy noise of a
 * few dozen votes, and show a group only when its noisy count stands well clear of it: groups of
 * a community this small are nearly always too few to show, and the screens say so. Choices are
 * keys in each poll's order.
 */
const crowd = Array.from({ length: 30 }, (_, index) => ({
  member: {
    firstName: `Voter${index + 1}`,
    email: `voter${index + 1}@example.com`,
    password: 'voter-password',
    gender: index < 15 ? 'M' : 'F',
    birthDate: bornAged(36 + (index % 8)),
    country: ['France', 'Germany', 'Spain'][index % 3],
  } satisfies Member,
  // The men like summer and coffee, the women autumn and tea: a split relate can describe.
  season: index < 15 ? 2 : 3,
  drink: index < 15 ? 2 : 1,
}));
/** Bob votes like the men of the crowd, for summer and coffee. */
const menWithBob = crowd.filter((voter) => voter.member.gender === 'M').length + 1;
const seasonVoters = crowd.length + 1;
const summerPercent = `${Math.round((menWithBob / seasonVoters) * 100)}%`;
/** A filtered result, or the notice that too few match: which one, the privacy noise decides. */
const filteredOrTooFew = /votes match|Too few people match to show results/;

const polls = {
  season: { title: 'Which season do you like best?', choices: ['Spring', 'Summer', 'Autumn'] },
  drink: { title: 'Do you prefer tea or coffee?', choices: ['Tea', 'Coffee'] },
  parks: { title: "How would you rate your city's parks?" },
  books: { title: 'How many books did you read this year?', min: '0', max: '200' },
} as const;
type PollName = keyof typeof polls;

const card = (page: Page, poll: PollName): Locator => page.getByRole('article', { name: polls[poll].title });
const path = (page: Page) => new URL(page.url()).pathname;
const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('pollscope.token'));

/** Accepts the next browser dialog (alert or confirm) and tells what it said. */
function nextDialog(page: Page): Promise<string> {
  return new Promise((resolve) => {
    page.once('dialog', (dialog) => {
      resolve(dialog.message());
      void dialog.accept();
    });
  });
}

describe.skipIf(!baseUrl).sequential('two members ask, answer and compare', () => {
  let browser: Browser;
  let alicePage: Page;
  let bobPage: Page;
  const ids = {} as Record<PollName, number>;
  let aliceId = 0;

  async function newPage(): Promise<Page> {
    const context = await browser.newContext({ baseURL: baseUrl, viewport: DESKTOP });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`page error: ${error.message}`));
    return page;
  }

  beforeAll(async () => {
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('sends a visitor to log in, through the quiz, to sign up', async () => {
    alicePage = await newPage();
    await alicePage.goto('/');
    await alicePage.getByRole('heading', { name: 'Welcome back' }).waitFor();
    expect(path(alicePage)).toBe('/login');
    expect(await alicePage.getByRole('link', { name: 'Settings' }).count()).toBe(0);
    await checkScreen(alicePage, 'login');

    await alicePage.getByRole('link', { name: 'take the quick quiz' }).click();
    const quiz = await getQuiz(baseUrl);
    for (const [index, item] of quiz.entries()) {
      await alicePage.getByRole('heading', { name: item.question.title }).waitFor();
      if (index === 0) await checkScreen(alicePage, 'quiz');
      const next = alicePage.getByRole('button', {
        name: index === quiz.length - 1 ? 'Next' : 'Next Question',
        exact: true,
      });
      const choices = item.question.choices as { key: number; value: string }[];
      if (item.strict) {
        const wrong = choices.find((choice) => choice.key !== item.answer)!;
        await alicePage.getByLabel(wrong.value, { exact: true }).check();
        await next.click();
        await alicePage.getByRole('alert').getByText('Your answer is wrong!').waitFor();
        expect(await alicePage.getByRole('heading', { name: item.question.title }).count()).toBe(1);
      }
      const right = choices.find((choice) => choice.key === item.answer) ?? choices[0];
      await alicePage.getByLabel(right.value, { exact: true }).check();
      await next.click();
    }

    await alicePage.getByRole('heading', { name: 'Join POLLSCOPE' }).waitFor();
    expect(path(alicePage)).toBe('/register');
    await alicePage.getByText(`Your ${quiz.length} quiz answers will be saved`).waitFor();
    await checkScreen(alicePage, 'register');

    await alicePage.getByRole('button', { name: 'Sign up' }).click();
    expect(await alicePage.getByText('Please fill in this field!').count()).toBe(7);
    await alicePage.getByLabel('First name').fill(alice.firstName);
    await alicePage.getByLabel('Birth date').fill(alice.birthDate);
    await alicePage.getByLabel('Female').check();
    await alicePage.getByLabel('Living in').selectOption({ label: alice.country });
    await alicePage.getByLabel('Email').fill(alice.email);
    await alicePage.getByLabel('Password', { exact: true }).fill(alice.password);
    await alicePage.getByLabel('Confirm password').fill(`${alice.password}!`);
    await alicePage.getByRole('button', { name: 'Sign up' }).click();
    await alicePage.getByText('Password and confirm not match!').waitFor();
    await alicePage.getByLabel('Confirm password').fill(alice.password);
    await alicePage.getByRole('button', { name: 'Sign up' }).click();

    await alicePage.getByText('No question exist from your connections!').waitFor();
    expect(path(alicePage)).toBe('/');
    await alicePage.getByRole('link', { name: 'Settings' }).waitFor();
    const stats = await getJson<Stats>(baseUrl, api.myStats, (await tokenOf(alicePage))!);
    expect(stats.answer).toBe(quiz.length);
  });

  it('lets a member ask one question of each type', async () => {
    const create = async (poll: PollName, fill: () => Promise<void>) => {
      await alicePage.getByRole('link', { name: 'ASK', exact: true }).click();
      await alicePage.getByRole('heading', { name: 'Create Poll' }).waitFor();
      await alicePage.getByLabel('Question').fill(polls[poll].title);
      await fill();
      await alicePage.getByRole('button', { name: 'Publish' }).click();
      await alicePage.waitForURL(/\/wall$/);
      const title = card(alicePage, poll).getByRole('link', { name: polls[poll].title });
      ids[poll] = Number((await title.getAttribute('href'))!.split('/').pop());
    };

    await alicePage.getByRole('link', { name: 'ASK', exact: true }).click();
    await alicePage.getByRole('heading', { name: 'Create Poll' }).waitFor();
    expect(await alicePage.getByLabel('Type').inputValue()).toBe('MC');
    await checkScreen(alicePage, 'create');

    await create('season', async () => {
      await alicePage.getByRole('button', { name: 'Add choice' }).click();
      for (const [index, choice] of polls.season.choices.entries())
        await alicePage.getByLabel(`Choice ${index + 1}`, { exact: true }).fill(choice);
      await alicePage.getByLabel('Tag (optional)').fill('seasons');
      await alicePage.getByLabel('Category (optional)').selectOption({ label: 'Lifestyle' });
    });
    const seasonCard = card(alicePage, 'season');
    expect(await seasonCard.getByRole('link', { name: '#seasons' }).getAttribute('href')).toBe('/tag/seasons');
    expect(await seasonCard.locator('.choice-grid--3').count()).toBe(1);
    await seasonCard.getByText(displayId('QID', ids.season)).waitFor();
    aliceId = Number(
      (await seasonCard.getByRole('link', { name: alice.firstName }).getAttribute('href'))!.split('/').pop(),
    );

    await create('drink', async () => {
      for (const [index, choice] of polls.drink.choices.entries())
        await alicePage.getByLabel(`Choice ${index + 1}`, { exact: true }).fill(choice);
      await alicePage.getByLabel('Tag (optional)').fill('seasons');
    });
    await create('parks', async () => {
      await alicePage.getByLabel('Type').selectOption('RS');
    });
    await create('books', async () => {
      await alicePage.getByLabel('Type').selectOption('N');
      await alicePage.getByLabel('Minimum').fill(polls.books.min);
      await alicePage.getByLabel('Maximum').fill(polls.books.max);
    });

    await alicePage.getByRole('link', { name: 'My account' }).click();
    await alicePage.getByRole('link', { name: /Asked Qs/ }).click();
    await alicePage.getByRole('heading', { name: 'My questions' }).waitFor();
    await card(alicePage, 'books').waitFor();
    expect(await alicePage.getByRole('article').count()).toBe(4);
    await checkScreen(alicePage, 'wall');
  });

  it('gathers votes from other members', async () => {
    for (const voter of crowd) {
      const token = await registerMember(baseUrl, voter.member);
      await answerAs(baseUrl, token, ids.season, voter.season);
      await answerAs(baseUrl, token, ids.drink, voter.drink);
    }
  });

  it('lets a second member log in and connect to the first', async () => {
    await registerMember(baseUrl, bob);
    bobPage = await newPage();
    await bobPage.goto('/login');
    await bobPage.getByLabel('Email').fill(bob.email);
    await bobPage.getByLabel('Password').fill('not-the-password');
    await bobPage.getByRole('button', { name: 'Log in' }).click();
    await bobPage.getByRole('alert').getByText('Wrong username or password!').waitFor();
    await bobPage.getByLabel('Password').fill(bob.password);
    await bobPage.getByRole('button', { name: 'Log in' }).click();
    await bobPage.getByText('No question exist from your connections!').waitFor();
    await checkScreen(bobPage, 'home (empty)');

    await bobPage.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Lifestyle' }).click();
    await bobPage.getByRole('heading', { name: 'Lifestyle' }).waitFor();
    await card(bobPage, 'season').waitFor();
    await checkScreen(bobPage, 'category');
    await card(bobPage, 'season').getByRole('link', { name: alice.firstName }).click();
    await bobPage.getByRole('heading', { name: alice.firstName }).waitFor();
    expect(path(bobPage)).toBe(`/user/${aliceId}`);
    await bobPage.getByText(displayId('UID', aliceId)).waitFor();
    await checkScreen(bobPage, 'profile');
    await bobPage.getByRole('button', { name: 'Connect', exact: true }).click();
    await bobPage.getByRole('button', { name: 'Connected' }).waitFor();
    // Back in the feed without a reload: it was empty when last shown, and now has Alice's questions.
    await bobPage.getByRole('link', { name: 'POLLSCOPE home' }).click();
    await card(bobPage, 'season').waitFor();

    await bobPage.goto('/tag/seasons');
    await bobPage.getByRole('heading', { name: 'Tag #seasons' }).waitFor();
    await card(bobPage, 'drink').waitFor();
    await checkScreen(bobPage, 'tag');

    await bobPage.getByRole('link', { name: 'My account' }).click();
    await bobPage.getByRole('link', { name: 'My Connections' }).click();
    const row = bobPage.getByRole('row', { name: new RegExp(alice.firstName) });
    await row.waitFor();
    expect(await row.getByRole('link', { name: displayId('UID', aliceId) }).getAttribute('href')).toBe(
      `/user/${aliceId}`,
    );
    expect(await row.locator('td[data-label="Asked"]').getByRole('link', { name: '4' }).getAttribute('href')).toBe(
      `/user/${aliceId}`,
    );
    await checkScreen(bobPage, 'connections');
  });

  it('shows the connection’s questions in the feed, and their results after voting', async () => {
    await bobPage.getByRole('link', { name: 'POLLSCOPE home' }).click();
    await card(bobPage, 'books').waitFor();
    await checkScreen(bobPage, 'home');

    const season = card(bobPage, 'season');
    expect(await season.getByRole('link', { name: 'Breakdown' }).count()).toBe(0);
    await season.getByLabel('Summer', { exact: true }).check();
    await season.getByRole('button', { name: 'Vote' }).click();
    const seasonResults = season.getByRole('region', { name: 'Results' });
    await seasonResults.getByText('(your answer)').waitFor();
    await seasonResults.getByText(summerPercent, { exact: true }).waitFor();
    expect(await season.getByRole('button', { name: 'Vote' }).count()).toBe(0);
    await season.getByText(`${seasonVoters} votes`, { exact: true }).waitFor();

    const drink = card(bobPage, 'drink');
    await drink.getByLabel('Coffee', { exact: true }).check();
    await drink.getByRole('button', { name: 'Vote' }).click();
    await drink.getByRole('region', { name: 'Results' }).waitFor();

    const parks = card(bobPage, 'parks');
    const slider = parks.getByRole('slider');
    expect(await slider.inputValue()).toBe('5');
    await slider.focus();
    await bobPage.keyboard.press('ArrowRight');
    await bobPage.keyboard.press('ArrowRight');
    await parks.getByRole('button', { name: 'Vote' }).click();
    await parks.getByText('7.00').waitFor();

    const books = card(bobPage, 'books');
    const alert = nextDialog(bobPage);
    await books.getByRole('button', { name: 'Vote' }).click();
    expect(await alert).toBe('Please enter your answer!');
    await books.getByLabel(/Your answer/).fill('12');
    await books.getByRole('button', { name: 'Vote' }).click();
    await books.getByText('12.00').waitFor();
    await checkScreen(bobPage, 'home (answered)');
  });

  it('breaks a result down by gender, age and country', async () => {
    await bobPage.goto('/');
    await card(bobPage, 'season').getByRole('link', { name: 'Breakdown' }).click();
    await bobPage.getByRole('heading', { name: 'Breakdown' }).waitFor();
    expect(path(bobPage)).toBe(`/breakdown/${ids.season}`);
    await bobPage.getByText(displayId('QID', ids.season)).waitFor();
    await bobPage.getByRole('heading', { name: polls.season.title }).waitFor();
    await checkScreen(bobPage, 'breakdown');

    // Everyone: exact, like the question's own result.
    await bobPage.getByRole('button', { name: 'Filter' }).click();
    const filtered = bobPage.getByRole('region', { name: 'Filtered result' });
    await filtered.getByText(`${seasonVoters} votes match`).waitFor();
    await checkScreen(bobPage, 'breakdown (filtered)');

    // Bob and the men of the crowd, counted with noise.
    await bobPage.getByLabel('Male', { exact: true }).check();
    await bobPage.getByLabel('Country').selectOption({ label: bob.country });
    await bobPage.getByRole('button', { name: 'Filter' }).click();
    await filtered.getByText(filteredOrTooFew).first().waitFor();

    await bobPage.getByRole('button', { name: 'Back' }).click();
    await card(bobPage, 'season').waitFor();
    expect(path(bobPage)).toBe('/');
  });

  it('relates two multiple-choice questions picked from the feed', async () => {
    await bobPage.goto('/');
    const seasonRelate = card(bobPage, 'season').getByRole('button', { name: 'Relate' });
    await seasonRelate.click();
    await bobPage.waitForFunction(() => document.querySelector('.relate-button--selected') !== null);
    expect(await seasonRelate.getAttribute('aria-pressed')).toBe('true');
    await bobPage.getByText('1 of 2 selected.').waitFor();
    await card(bobPage, 'drink').getByRole('button', { name: 'Relate' }).click();

    const title = `Relate ${displayId('QID', ids.season)} and ${displayId('QID', ids.drink)}`;
    await bobPage.getByRole('heading', { name: title }).waitFor();
    expect(path(bobPage)).toBe(`/relate/${ids.season}/${ids.drink}/`);
    await checkScreen(bobPage, 'relate');

    await bobPage.getByRole('button', { name: 'Coffee' }).click();
    await bobPage.getByText(`${displayId('QID', ids.season)} votes filtered for "Coffee" voters`).waitFor();
    await bobPage.getByText(filteredOrTooFew).first().waitFor();
    await checkScreen(bobPage, 'relate (filtered)');

    await bobPage.getByRole('button', { name: 'Change' }).click();
    await bobPage
      .getByRole('heading', { name: `Relate ${displayId('QID', ids.drink)} and ${displayId('QID', ids.season)}` })
      .waitFor();
    await bobPage.getByRole('button', { name: 'Back' }).click();
    await card(bobPage, 'season').waitFor();
    expect(path(bobPage)).toBe('/');
    expect(await card(bobPage, 'season').getByRole('button', { name: 'Relate' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
  });

  it('likes a question and hides another', async () => {
    await bobPage.goto('/');
    const like = card(bobPage, 'season').getByRole('button', { name: /^Like/ });
    await like.click();
    await bobPage.waitForFunction(() => document.querySelector('.like-button--on') !== null);
    await bobPage.reload();
    expect(await card(bobPage, 'season').getByRole('button', { name: /^Like/ }).getAttribute('aria-pressed')).toBe(
      'true',
    );

    await card(bobPage, 'season').getByRole('link', { name: polls.season.title }).click();
    await bobPage.getByRole('heading', { name: `Question ${displayId('QID', ids.season)}` }).waitFor();
    expect(path(bobPage)).toBe(`/question/${ids.season}`);
    await card(bobPage, 'season').getByRole('region', { name: 'Results' }).waitFor();
    await checkScreen(bobPage, 'question');

    // A vote cast elsewhere reaches the open page without a reload.
    const seasonVotes = card(bobPage, 'season').getByText(`${seasonVoters} votes`, { exact: true });
    await seasonVotes.waitFor();
    await bobPage.evaluate(() => Object.assign(window, { openedBeforeTheVote: true }));
    const latecomer = await registerMember(baseUrl, {
      ...crowd[0].member,
      firstName: 'Latecomer',
      email: 'latecomer@example.com',
    });
    await answerAs(baseUrl, latecomer, ids.season, 1);
    await card(bobPage, 'season')
      .getByText(`${seasonVoters + 1} votes`, { exact: true })
      .waitFor({ timeout: 10_000 });
    expect(await seasonVotes.count()).toBe(0);
    expect(await bobPage.evaluate(() => 'openedBeforeTheVote' in window)).toBe(true);

    await bobPage.getByRole('link', { name: 'My account' }).click();
    await bobPage.getByRole('link', { name: /Liked/ }).click();
    await card(bobPage, 'season').waitFor();
    await checkScreen(bobPage, 'likes');
    await bobPage.getByRole('link', { name: 'POLLSCOPE home' }).click();

    const parks = card(bobPage, 'parks');
    const confirm = nextDialog(bobPage);
    await parks.getByRole('button', { name: 'Hide' }).click();
    expect(await confirm).toBe('Are you sure you want to hide this question?');
    await parks.waitFor({ state: 'detached' });
    await card(bobPage, 'season').waitFor();
  });

  it('blocks and unblocks a member', async () => {
    await bobPage.goto(`/user/${aliceId}`);
    await bobPage.getByRole('button', { name: 'Block' }).click();
    await bobPage.getByRole('button', { name: 'Unblock' }).waitFor();
    expect(await bobPage.getByRole('button', { name: /^Connect/ }).count()).toBe(0);
    await bobPage.getByRole('button', { name: 'Unblock' }).click();
    await bobPage.getByRole('button', { name: 'Block' }).waitFor();
    // A block ends the follow both ways, so Connect is offered again.
    await bobPage.getByRole('button', { name: 'Connect', exact: true }).waitFor();
    await bobPage.goto('/connections');
    await bobPage.getByRole('cell', { name: 'No Connections!' }).waitFor();
  });

  it('edits preferences and personal info, then logs out', async () => {
    await bobPage.getByRole('link', { name: 'Settings' }).click();
    await bobPage.getByRole('heading', { name: 'PREFERENCES' }).waitFor();
    expect(await bobPage.getByLabel('Email').inputValue()).toBe(bob.email);
    await checkScreen(bobPage, 'settings');
    await bobPage.getByLabel('No', { exact: true }).check();
    await bobPage.getByLabel('New password').fill('a-new-password');
    await bobPage.getByRole('button', { name: 'Save' }).click();
    // A new password needs its confirmation and the current password.
    const missing = bobPage.getByText('Please fill in this field!');
    await missing.first().waitFor();
    expect(await missing.count()).toBe(2);
    await bobPage.getByLabel('Current password').fill(bob.password);
    await bobPage.getByLabel('Confirm password').fill('another-password');
    await bobPage.getByRole('button', { name: 'Save' }).click();
    await bobPage.getByText('Password and confirm not match!').waitFor();
    await bobPage.getByLabel('Confirm password').fill('a-new-password');
    await bobPage.getByRole('button', { name: 'Save' }).click();
    const saved = bobPage.getByText('Settings updated');
    await saved.waitFor();
    await saved.waitFor({ state: 'detached', timeout: 4000 });

    await bobPage.getByRole('link', { name: 'My account' }).click();
    await bobPage.getByRole('heading', { name: 'PERSONAL INFO' }).waitFor();
    await bobPage.getByRole('heading', { name: 'PERSONAL STATS' }).waitFor();
    expect(await bobPage.getByLabel('First name').inputValue()).toBe(bob.firstName);
    await checkScreen(bobPage, 'personal info');
    await bobPage.getByLabel('Favorite topic (optional)').fill('Gardening');
    await bobPage.getByLabel('Favorite category (optional)').selectOption({ label: 'Travel' });
    await bobPage.getByRole('button', { name: 'Save' }).click();
    await bobPage.getByText('Personal info updated').waitFor();
    await bobPage.reload();
    expect(await bobPage.getByLabel('Favorite topic (optional)').inputValue()).toBe('Gardening');

    await bobPage.getByRole('button', { name: 'Logout' }).click();
    await bobPage.getByRole('heading', { name: 'Welcome back' }).waitFor();
    expect(await tokenOf(bobPage)).toBeNull();
    await bobPage.goto('/settings');
    await bobPage.getByRole('heading', { name: 'Welcome back' }).waitFor();

    await bobPage.getByLabel('Email').fill(bob.email);
    await bobPage.getByLabel('Password').fill('a-new-password');
    await bobPage.getByRole('button', { name: 'Log in' }).click();
    await bobPage.getByRole('link', { name: 'My account' }).waitFor();
  });

  it('shows the public pages and the not-found screen', async () => {
    for (const [link, heading] of [
      ['Contact', 'Contact'],
      ['Rules', 'Community rules'],
      ['Privacy', 'Privacy'],
      ['Stats', 'Stats'],
    ] as const) {
      await alicePage.getByRole('navigation', { name: 'Site' }).getByRole('link', { name: link }).click();
      await alicePage.getByRole('heading', { name: heading, exact: true }).waitFor();
      await checkScreen(alicePage, heading);
    }
    const chart = alicePage.getByRole('img', { name: 'Chart of answers per day over the last 30 days' });
    await chart.waitFor();
    expect(await chart.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    const totals = await getJson<SiteStats>(baseUrl, api.siteStats);
    await alicePage
      .getByRole('table', { name: 'Totals' })
      .getByRole('row', { name: `Questions ${totals.questions}` })
      .waitFor();

    await alicePage.goto('/no/such/page');
    await alicePage.getByRole('heading', { name: 'Page not found!' }).waitFor();
    await checkScreen(alicePage, 'not found');
  });
});
