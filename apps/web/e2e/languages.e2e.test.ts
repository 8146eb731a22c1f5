import {
  api,
  type Question,
  type QuizItem,
  type Settings,
  type SettingsUpdateBody,
  type UiLocale as Locale,
} from '@pollscope/contract';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { IntlMessageFormat } from 'intl-messageformat';
import type { ParsedMail } from 'mailparser';
import { recipientOf, startMailServer, type TestMailServer } from '../../server/src/test/mail-server';
import { answerAs, getJson, postAs, registerMember, type Member } from './support/api';
import { localeNames } from '../src/i18n/locale-names';
import { checkScreen, shoot } from './support/checks';
import { launchChromium } from './support/chromium';
import { startServer, webDir, type RunningServer } from './support/server';
import { sharedServerUrl } from './support/shared-server';

/**
 * Every screen in the pseudo-locale, and the main ones in German, French, Japanese and Arabic:
 * no word a person reads comes from outside the catalogs, nothing is cut off on a phone, and
 * Arabic is laid out right to left. People's own texts here are written in accented letters, as
 * the pseudo-locale writes the catalogs' texts, so that any plain English word on a screen is one
 * the code wrote itself. This file starts a server of its own, with an admin (for the moderation
 * screens) proven by the mailed link.
 */
const browserTests = sharedServerUrl() !== '';
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 900 };

const person = (firstName: string, email: string, gender: 'F' | 'M', birthDate: string, country: string): Member => ({
  firstName,
  email,
  password: `${email.split('@')[0]}-password`,
  gender,
  birthDate,
  country,
});
const walker = person('Ŕöšåļîñð', 'walker@example.com', 'F', '1988-02-11', 'Germany');
const other = person('Ĵûļéš', 'other@example.com', 'M', '1979-09-30', 'France');
const voters = Array.from({ length: 6 }, (_, index) =>
  person(
    `Ṽöţéŕ${'ÅƁÇĐÉƑ'[index]}`,
    `voter${index}@example.com`,
    index % 2 ? 'M' : 'F',
    `19${70 + index * 4}-05-0${index + 1}`,
    ['Germany', 'France', 'Spain'][index % 3],
  ),
);

/** People's own texts: questions, choices and a tag, accented so that none reads as plain English. */
const askedByOther = [
  {
    type: 'MC',
    question: 'Ŵĥîçĥ šéåšöñ ðö ýöû ļîķé ƀéšţ?',
    choices: ['Šþŕîñĝ', 'Šûɱɱéŕ', 'Åûţûɱñ'],
    tags: ['šéåšöñš'],
  },
  { type: 'RS', question: 'Ĥöŵ ĝööð îš ţĥé çöƒƒéé ĥéŕé?', choices: [] },
  { type: 'N', question: 'Ĥöŵ ɱåñý ƀööķš ðîð ýöû ŕéåð?', choices: ['0', '500'] },
] as const;
const askedByWalker = { type: 'MC', question: 'Ţéå öŕ çöƒƒéé?', choices: ['Ţéå', 'Çöƒƒéé'] } as const;

const englishCatalog = JSON.parse(fs.readFileSync(path.join(webDir, 'src/i18n/catalogs/en.json'), 'utf8')) as Record<
  string,
  string
>;
/** A text of the server's catalog of `locale`, as its mail says it. */
const serverMessage = (locale: string, id: string, values?: Record<string, string | number>) => {
  const catalog = JSON.parse(
    fs.readFileSync(path.join(webDir, `../server/src/i18n/catalogs/${locale}.json`), 'utf8'),
  ) as Record<string, string>;
  return String(new IntlMessageFormat(catalog[id], locale).format(values));
};
/** The words of the server's English texts (its API errors among them). */
const serverEnglish = catalogWords(
  JSON.parse(fs.readFileSync(path.join(webDir, '../server/src/i18n/catalogs/en.json'), 'utf8')) as Record<
    string,
    string
  >,
);
const catalogOf = (locale: string) =>
  JSON.parse(fs.readFileSync(path.join(webDir, `src/i18n/catalogs/${locale}.json`), 'utf8')) as Record<string, string>;

/** The words of a catalog's texts, lower-cased, without its placeholders' names and ICU keywords. */
function catalogWords(catalog: Record<string, string>): Set<string> {
  const words = new Set<string>();
  for (const text of Object.values(catalog)) {
    const literal = text
      .replace(/\{\s*\w+\s*,\s*(plural|select|selectordinal)\s*,/g, '{')
      .replace(/\b(one|other|zero|two|few|many)\s*\{/g, '{')
      .replace(/\{\s*\w+\s*(,[^{}]*)?\}/g, ' ')
      .replace(/<\/?\w+>/g, ' ');
    for (const word of literal.toLowerCase().match(/\p{L}+/gu) ?? []) words.add(word);
  }
  return words;
}

/** What the screen shows a person, read as a screen reader and an eye would: texts, labels, options, its title. */
function readScreen(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const shown = (element: Element) => {
      const style = getComputedStyle(element);
      return style.display !== 'none' && style.visibility !== 'hidden' && element.getClientRects().length > 0;
    };
    const texts: string[] = [document.title];
    const nodes = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = nodes.nextNode(); node; node = nodes.nextNode()) {
      const parent = node.parentElement;
      if (!parent || parent.closest('script, style, noscript, template') || !shown(parent)) continue;
      if (node.textContent?.trim()) texts.push(node.textContent.trim());
    }
    for (const element of document.body.querySelectorAll('[aria-label], [placeholder], [title], [alt], option')) {
      if (element.tagName !== 'OPTION' && !shown(element)) continue;
      for (const attribute of ['aria-label', 'placeholder', 'title', 'alt'])
        if (element.getAttribute(attribute)?.trim()) texts.push(element.getAttribute(attribute)!.trim());
      if (element.tagName === 'OPTION' && element.textContent?.trim()) texts.push(element.textContent.trim());
    }
    return texts;
  });
}

/**
 * The words `Intl` writes in English for dates, times, numbers, countries and languages: the
 * pseudo-locale formats as English does, so these are the catalogs' words' only neighbours.
 */
function intlEnglishWords(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const words = new Set<string>();
    const add = (text: string) => text.match(/[A-Za-z]+/g)?.forEach((word) => words.add(word));
    for (let month = 0; month < 12; month++)
      for (const style of ['long', 'short'] as const)
        for (const english of ['en', 'en-GB'])
          add(
            new Intl.DateTimeFormat(english, { month: style, weekday: style }).format(new Date(2026, month, 1 + month)),
          );
    for (let day = 0; day < 7; day++)
      add(new Intl.DateTimeFormat('en', { weekday: 'long', hour: 'numeric' }).format(new Date(2026, 0, 4 + day, 15)));
    const units = ['second', 'minute', 'hour', 'day', 'week', 'month', 'year'] as const;
    for (const numeric of ['always', 'auto'] as const)
      for (const style of ['long', 'short', 'narrow'] as const)
        for (const unit of units)
          for (const value of [-2, -1, 0, 1, 2])
            add(new Intl.RelativeTimeFormat('en', { numeric, style }).format(value, unit));
    const regions = new Intl.DisplayNames('en', { type: 'region' });
    const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
    for (const first of letters)
      for (const second of letters)
        try {
          const name = regions.of(first + second);
          if (name && name !== first + second) add(name);
        } catch {
          // Not a region code.
        }
    const languages = new Intl.DisplayNames('en', { type: 'language' });
    for (const first of 'abcdefghijklmnopqrstuvwxyz')
      for (const second of 'abcdefghijklmnopqrstuvwxyz')
        try {
          const name = languages.of(first + second);
          if (name && name !== first + second) add(name);
        } catch {
          // Not a language code.
        }
    return [...words];
  });
}

/** A screen has finished loading: its heading is there and nothing on it says it is still loading. */
async function loaded(page: Page): Promise<void> {
  try {
    await page.locator('main h1, main h2').first().waitFor({ timeout: 30_000 });
    await page.waitForFunction(() => !document.querySelector('main .loading, main [aria-busy="true"]'), undefined, {
      timeout: 30_000,
    });
  } catch (error) {
    // Say which screen, and what it showed instead.
    const shown = await page.evaluate(() => document.body.innerText.slice(0, 300)).catch(() => '');
    throw new Error(`${page.url()} did not finish loading; it showed: ${shown}`, { cause: error });
  }
}

/** Texts cut off on the screen: boxes that clip their text, or end it with an ellipsis, narrower than it. */
function cutOff(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.body.querySelectorAll('*')]
      .filter((element) => {
        if (!(element instanceof HTMLElement) || !element.innerText?.trim() || element.getClientRects().length === 0)
          return false;
        // Text for screen readers alone is clipped on purpose (a 1 px box, or a clip on it or around it).
        for (let box: Element | null = element; box; box = box.parentElement) {
          const { clip, clipPath } = getComputedStyle(box);
          const { width, height } = box.getBoundingClientRect();
          if ((clip !== 'auto' && clip !== '') || clipPath !== 'none' || width <= 1 || height <= 1) return false;
        }
        const style = getComputedStyle(element);
        const clips = style.textOverflow === 'ellipsis' || ['hidden', 'clip'].includes(style.overflowX);
        return clips && element.scrollWidth > element.clientWidth + 1;
      })
      .map(
        (element) =>
          `${element.tagName.toLowerCase()}.${element.className}: ${(element as HTMLElement).innerText.slice(0, 60)}`,
      ),
  );
}

describe.skipIf(!browserTests).sequential('Pollscope in the languages of its people', () => {
  let server: RunningServer;
  let browser: Browser;
  let mailbox: TestMailServer;
  const tokens = {} as Record<'walker' | 'other', string>;
  const voterTokens: string[] = [];
  const questions: Question[] = [];
  let walkersQuestion: Question;

  async function contextFor(
    locale: string,
    { signedIn = true, pseudo = false }: { signedIn?: boolean; pseudo?: boolean } = {},
  ): Promise<BrowserContext> {
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: PHONE, locale });
    if (pseudo) await context.addCookies([{ name: 'pollscope_lang', value: 'en-XA', url: server.baseUrl }]);
    if (signedIn)
      await context.addInitScript((token) => {
        if (!localStorage.getItem('pollscope.token')) localStorage.setItem('pollscope.token', token);
      }, tokens.walker);
    return context;
  }

  beforeAll(async () => {
    mailbox = await startMailServer();
    [server, browser] = await Promise.all([
      // Notification mail gathered for a second only, so that the test sees one without waiting an hour.
      startServer({ env: { ADMIN_EMAILS: walker.email, SMTP_URL: mailbox.url, EMAIL_BATCH_SECONDS: '1' } }),
      launchChromium(),
    ]);
    tokens.walker = await registerMember(server.baseUrl, walker);
    tokens.other = await registerMember(server.baseUrl, other);
    const proof = await vi.waitFor(
      () => {
        const found = mailbox.received.find((mail) => [mail.to].flat()[0]?.text === walker.email);
        expect(found).toBeDefined();
        return found!;
      },
      { timeout: 20_000, interval: 100 },
    );
    const token = /confirm-email\?token=([\w-]+)/.exec(proof.text ?? '')?.[1];
    await postAs(server.baseUrl, tokens.walker, api.confirmEmail, { token });

    for (const body of askedByOther)
      questions.push((await postAs<{ question: Question }>(server.baseUrl, tokens.other, api.create, body)).question);
    ({ question: walkersQuestion } = await postAs<{ question: Question }>(
      server.baseUrl,
      tokens.walker,
      api.create,
      askedByWalker,
    ));
    const [seasons, coffee] = questions;
    for (const [index, voter] of voters.entries()) {
      const token = await registerMember(server.baseUrl, voter);
      voterTokens.push(token);
      await answerAs(server.baseUrl, token, seasons.id, 1 + (index % 3));
      await answerAs(server.baseUrl, token, coffee.id, 1 + index);
      await answerAs(server.baseUrl, token, walkersQuestion.id, 1 + (index % 2));
      await postAs(server.baseUrl, token, api.like(walkersQuestion.id));
      await postAs(server.baseUrl, token, api.follow(walkersQuestion.user));
    }
    await answerAs(server.baseUrl, tokens.walker, seasons.id, 2);
    await answerAs(server.baseUrl, tokens.walker, coffee.id, 7);
    await postAs(server.baseUrl, tokens.walker, api.like(seasons.id));
    await postAs(server.baseUrl, tokens.walker, api.follow(seasons.user));
    await postAs(server.baseUrl, tokens.other, api.reports, { question: walkersQuestion.id, reason: 'spam' }).catch(
      () => undefined,
    );
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await mailbox?.stop();
  });

  /** Sets the account's own language, as its settings screen would, notification mail on. */
  async function speaks(token: string, language: Locale): Promise<void> {
    const settings = await getJson<Settings>(server.baseUrl, api.settings, token);
    await postAs(server.baseUrl, token, api.settings, {
      email: settings.email,
      notification: true,
      language,
    } satisfies SettingsUpdateBody);
  }

  /** Every screen of the app, those a visitor sees and those of a signed-in member (an admin, for moderation). */
  async function everyScreen() {
    const [seasons, coffee, books] = questions;
    const categories = await getJson<{ id: number }[]>(server.baseUrl, api.categories);
    return {
      signedOut: [
        '/login',
        '/register',
        '/quiz',
        '/forgot-password',
        '/reset-password?token=x',
        '/confirm-email?token=x',
      ],
      signedIn: [
        '/',
        '/trending',
        `/category/${categories[0].id}`,
        '/tag/šéåšöñš',
        '/search?q=çöƒƒéé',
        `/search/people?q=${encodeURIComponent('Ĵûļ')}`,
        `/question/${seasons.id}`,
        `/question/${books.id}`,
        `/breakdown/${seasons.id}`,
        `/relate/${seasons.id}/${coffee.id}/`,
        '/create',
        '/settings',
        '/myaccount',
        '/wall',
        '/answered',
        '/likes',
        `/user/${seasons.user}`,
        `/user/${seasons.user}/answered`,
        `/user/${seasons.user}/likes`,
        '/connections',
        '/notifications',
        '/stats',
        '/rules',
        '/contact',
        '/privacy',
        '/moderation',
        '/moderation/closed',
        '/moderation/log',
        '/moderation/people',
        '/reports',
        '/no-such-screen',
      ],
    };
  }

  it('walks every screen in the pseudo-locale and finds no text outside the catalogs, none cut off at 375 px', async () => {
    const screens = await everyScreen();
    const quiz = await getJson<QuizItem[]>(server.baseUrl, api.quizes);
    // Texts that are people's and not the app's: the quiz's questions, which the system account asked in English and
    // which lists show as any other question.
    const quizWords = quiz
      .flatMap(({ question }) => [
        question.title,
        ...(Array.isArray(question.choices) ? question.choices.map((choice) => choice.value) : []),
      ])
      .flatMap((text) => text.match(/[A-Za-z]+/g) ?? []);
    const findings: string[] = [];
    for (const [signedIn, paths] of [
      [false, screens.signedOut],
      [true, screens.signedIn],
    ] as const) {
      const context = await contextFor('en-US', { signedIn, pseudo: true });
      const page = await context.newPage();
      page.on('pageerror', (error) => findings.push(`page error: ${error.message}`));
      const allowed = new Set([
        'POLLSCOPE',
        'Pollscope',
        // The spec's display ids (QID007, UID003) and the languages as the switcher names them, each in itself.
        'QID',
        'UID',
        ...Object.values(localeNames).flatMap((name) => name.match(/\p{L}+/gu) ?? []),
        ...quizWords,
        ...(await (async () => {
          await page.goto('/rules');
          return intlEnglishWords(page);
        })()),
      ]);
      for (const at of paths) {
        await page.goto(at);
        await loaded(page);
        expect(await page.evaluate(() => document.documentElement.lang), at).toBe('en-XA');
        for (const text of await readScreen(page)) {
          // Addresses are people's, and the server's own texts are English in the pseudo-locale, which only the app has.
          const words = text.replace(/\S+@\S+/g, ' ').match(/\p{L}+/gu) ?? [];
          const fromServer = (word: string) => serverEnglish.has(word.toLowerCase());
          // A server's text alone, or inside one of the app's messages (which the pseudo-locale brackets).
          if (words.length > 0 && words.every(fromServer)) continue;
          const english = words.filter(
            (word) => /^[A-Za-z]+$/.test(word) && !allowed.has(word) && !(text.includes('⟦') && fromServer(word)),
          );
          if (english.length) findings.push(`${at}: "${text.slice(0, 80)}" has ${english.join(' ')}`);
        }
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > PHONE.width) findings.push(`${at}: ${width} px wide on a ${PHONE.width} px phone`);
        for (const cut of await cutOff(page)) findings.push(`${at}: cut off: ${cut}`);
      }
      await context.close();
    }
    expect(findings).toEqual([]);
  }, 600_000);

  it.each<[Locale, string]>([
    ['ar', 'ar-EG'],
    ['ja', 'ja-JP'],
  ])(
    'shows every screen in %s in its direction, fitting a phone, accessible, light and dark',
    async (locale, tag) => {
      const screens = await everyScreen();
      await speaks(tokens.walker, locale);
      for (const [signedIn, paths] of [
        [false, screens.signedOut],
        [true, screens.signedIn],
      ] as const) {
        const context = await contextFor(tag, { signedIn });
        const page = await context.newPage();
        for (const at of paths) {
          await page.goto(at);
          await loaded(page);
          const name = at.replace(/[^\w]+/g, '-').replace(/^-|-$/g, '') || 'feed';
          expect(await page.evaluate(() => document.documentElement.lang), at).toBe(locale);
          expect(await page.evaluate(() => document.documentElement.dir), at).toBe(locale === 'ar' ? 'rtl' : 'ltr');
          await checkScreen(page, `${at} (${locale})`);
          await shoot(page, `languages-${locale}-${name}`);
        }
        await context.close();
      }
    },
    600_000,
  );

  describe.each<[Locale, string]>([
    ['de', 'de-DE'],
    ['fr', 'fr-FR'],
    ['ja', 'ja-JP'],
    ['ar', 'ar-EG'],
  ])('with the browser in %s', (locale, browserLocale) => {
    const english = catalogWords(englishCatalog);
    const ownWords = catalogWords(catalogOf(locale));
    /** English words of the English catalog on the screen, but for those the language's catalog uses too. */
    const englishOn = async (page: Page) =>
      (await readScreen(page))
        .flatMap((text) => text.toLowerCase().match(/\p{L}+/gu) ?? [])
        .filter((word) => english.has(word) && !ownWords.has(word) && word !== 'pollscope');

    it('shows the login page, the feed, a question with its breakdown, the settings and an error without English', async () => {
      const [seasons] = questions;
      const visitor = await contextFor(browserLocale, { signedIn: false });
      const login = await visitor.newPage();
      await login.goto('/login');
      await loaded(login);
      expect(await login.evaluate(() => document.documentElement.lang)).toBe(locale);
      expect(await login.evaluate(() => document.documentElement.dir)).toBe(locale === 'ar' ? 'rtl' : 'ltr');
      // A wrong password: the error the screen shows.
      await login.locator('input[type=email]').fill(walker.email);
      await login.locator('input[type=password]').fill('not-the-password');
      await login.locator('form button[type=submit]').click();
      await login.locator('[role=alert]').first().waitFor();
      expect(await englishOn(login), 'login').toEqual([]);
      await checkScreen(login, `login (${locale})`);
      await visitor.close();

      // A member whose account is in the language, as registering from such a browser makes it.
      await speaks(tokens.walker, locale);
      const member = await contextFor(browserLocale);
      const page = await member.newPage();
      for (const [screen, at] of [
        ['feed', '/'],
        ['question', `/question/${seasons.id}`],
        ['breakdown', `/breakdown/${seasons.id}`],
        ['settings', '/settings'],
      ] as const) {
        await page.goto(at);
        await loaded(page);
        expect(await englishOn(page), screen).toEqual([]);
        await checkScreen(page, `${screen} (${locale})`);
      }
      if (locale === 'ar') {
        await page.setViewportSize(DESKTOP);
        await page.goto('/');
        await loaded(page);
        // The header's first item (the brand) is at the right, where Arabic begins.
        const brand = await page.locator('header a').first().boundingBox();
        expect(brand!.x).toBeGreaterThan(DESKTOP.width / 2);
      }
      await member.close();
    }, 180_000);
  });

  it("keeps a member's chosen language across sign-out and sign-in, over the browser's", async () => {
    await speaks(tokens.other, 'ja');
    const context = await browser.newContext({ baseURL: server.baseUrl, viewport: DESKTOP, locale: 'fr-FR' });
    const page = await context.newPage();
    await page.goto('/login');
    await loaded(page);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('fr');
    for (let round = 0; round < 2; round++) {
      await page.locator('input[type=email]').fill(other.email);
      await page.locator('input[type=password]').fill(other.password);
      await page.locator('form button[type=submit]').click();
      await page.waitForURL((url) => url.pathname === '/');
      await loaded(page);
      expect(await page.evaluate(() => document.documentElement.lang), `signed in, round ${round + 1}`).toBe('ja');
      await page.reload();
      await loaded(page);
      expect(await page.evaluate(() => document.documentElement.lang), `reloaded, round ${round + 1}`).toBe('ja');
      // Signed out: the session ends and the device forgets it.
      await page.evaluate(async () => {
        const token = localStorage.getItem('pollscope.token');
        await fetch('/api/auth/logout/', { method: 'POST', headers: { Authorization: `Token ${token}` } });
        localStorage.clear();
      });
      await page.goto('/login');
      await loaded(page);
    }
    await context.close();
  }, 120_000);
  it('mails a member in their language: three likes gathered in a notification, and the password-reset link', async () => {
    const reader = person('Ɓéŕţå', 'reader@example.com', 'F', '1990-03-03', 'Germany');
    const token = await registerMember(server.baseUrl, reader);
    await speaks(token, 'de');
    const { question } = await postAs<{ question: Question }>(server.baseUrl, token, api.create, {
      type: 'MC',
      question: 'Ķåƒƒéé öðéŕ Ţéé?',
      choices: ['Ķåƒƒéé', 'Ţéé'],
    });
    for (const voter of voterTokens.slice(0, 3)) await postAs(server.baseUrl, voter, api.like(question.id));
    const mailTo = (test: (mail: ParsedMail) => boolean) =>
      vi.waitFor(
        () => {
          const found = mailbox.received.find((mail) => recipientOf(mail) === reader.email && test(mail));
          expect(found).toBeDefined();
          return found!;
        },
        { timeout: 30_000, interval: 100 },
      );

    // The line of the three likes, in German's words and plural, around the question however it is quoted.
    const marker = '\u0001';
    const likes = serverMessage('de', 'mail.notifications.like', {
      count: 3,
      first: voters[2].firstName,
      second: voters[1].firstName,
      others: 2,
      question: marker,
    }).split(marker);
    const notification = await mailTo((mail) => (mail.text ?? '').includes(likes[0]));
    expect(notification.text).toContain(likes[1]);
    expect(notification.text).toContain(serverMessage('de', 'mail.notifications.action'));

    await fetch(`${server.baseUrl}${api.passwordReset}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Accept-Language': 'en' },
      body: JSON.stringify({ email: reader.email }),
    });
    const reset = await mailTo((mail) => mail.subject === serverMessage('de', 'mail.passwordReset.subject'));
    expect(reset.text).toContain(serverMessage('de', 'mail.passwordReset.title'));
  }, 120_000);
});
