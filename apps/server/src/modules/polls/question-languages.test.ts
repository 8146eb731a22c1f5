import {
  accountExportSchema,
  answerBodySchema,
  api,
  connectedSchema,
  feedSchema,
  questionPageSchema,
  questionSchema,
  settingsSchema,
  trendingSchema,
  type Question,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
let author: TestUser;
let reader: TestUser;
beforeAll(async () => {
  ctx = await createTestApp();
  author = await signUp(ctx, { firstName: 'Author' });
  reader = await signUp(ctx, { firstName: 'Reader' });
});
afterAll(() => ctx.close());

/** Saves the person's settings with `change` on top of what they are. */
async function saveSettings(user: TestUser, change: Record<string, unknown>) {
  return user.api.raw('POST', api.settings, { email: user.email, notification: true, ...change });
}

const ids = (questions: readonly Question[]) => questions.map((question) => question.id);

describe('a question’s language', () => {
  it('is the one named when asking, shown with the question everywhere', async () => {
    const id = await ask(author, { question: 'Katzen oder Hunde?', choices: ['Katzen', 'Hunde'], language: 'de' });
    const question = await author.api.get(api.question(id), questionSchema.strict());
    expect(question.language).toBe('de');
    const mine = await author.api.get(api.myQuestions, questionPageSchema.strict());
    expect(mine.questions.find((listed) => listed.id === id)?.language).toBe('de');
  });

  it('is the asker’s language when none is named, as a language alone', async () => {
    expect(await saveSettings(author, { language: 'pt-BR' })).toMatchObject({ status: 200 });
    const inPortuguese = await ask(author, { question: 'Praia ou montanha?', choices: ['Praia', 'Montanha'] });
    expect((await author.api.get(api.question(inPortuguese), questionSchema)).language).toBe('pt');
    const newcomer = await signUp(ctx);
    const inEnglish = await ask(newcomer);
    expect((await newcomer.api.get(api.question(inEnglish), questionSchema)).language).toBe('en');
    expect(await saveSettings(author, { language: 'en' })).toMatchObject({ status: 200 });
  });

  it('is an ISO 639-1 code, any of them: anything else is 400 on `language`', async () => {
    const fine = await ask(author, { question: 'Chai au kahawa?', choices: ['Chai', 'Kahawa'], language: 'sw' });
    expect((await author.api.get(api.question(fine), questionSchema)).language).toBe('sw');
    for (const language of ['xx', 'pt-BR', 'DE', '', 7]) {
      const reply = await author.api.raw('POST', api.create, {
        type: 'MC',
        question: 'Which?',
        choices: ['A', 'B'],
        tags: [],
        language,
      });
      expect(reply.status, String(language)).toBe(400);
      expect(Object.keys(reply.error().errors ?? {}), String(language)).toEqual(['language']);
    }
  });

  it('goes with the question into its asker’s download of their data', async () => {
    const id = await ask(author, { question: 'Tè o caffè?', choices: ['Tè', 'Caffè'], language: 'it' });
    const download = accountExportSchema.parse((await author.api.raw('GET', api.exportAccount)).json());
    expect(download.questions.find((question) => question.id === id)?.language).toBe('it');
  });
});

describe('the languages of questions a person reads', () => {
  it('choose what the feed, lists, search and trending show; a question’s own page shows whatever its language', async () => {
    const tag = `lang${Date.now()}`;
    const word = `Vorblix${Date.now()}`;
    const german = await ask(author, {
      question: `${word} heute?`,
      choices: ['Ja', 'Nein'],
      tags: [tag],
      language: 'de',
    });
    const english = await ask(author, {
      question: `${word} today?`,
      choices: ['Yes', 'No'],
      tags: [tag],
      language: 'en',
    });
    for (const question of [german, english])
      await (await signUp(ctx)).api.post(api.answer(question), answerBodySchema, { choice: 1 }, questionSchema);
    await reader.api.post(api.follow(author.id), connectedSchema);
    const own = await ask(reader, { question: 'My own, in English?', choices: ['Yes', 'No'], language: 'en' });

    const shown = async () => ({
      feed: ids((await reader.api.get(`${api.feed}?limit=100`, feedSchema)).questions),
      tag: ids((await reader.api.get(api.tag(tag), questionPageSchema)).questions),
      search: ids((await reader.api.get(api.search(word), questionPageSchema)).questions),
      trending: ids((await reader.api.get(api.trending, trendingSchema)).questions),
      author: ids((await reader.api.get(api.userQuestions(author.id), questionPageSchema)).questions),
      mine: ids((await reader.api.get(api.myQuestions, questionPageSchema)).questions),
    });

    // All languages: both.
    let lists = await shown();
    for (const [name, list] of Object.entries(lists).filter(([name]) => name !== 'mine'))
      expect(list, name).toEqual(expect.arrayContaining([german, english]));

    expect(await saveSettings(reader, { question_languages: ['de', 'fr'] })).toMatchObject({ status: 200 });
    expect(await reader.api.get(api.settings, settingsSchema)).toMatchObject({ question_languages: ['de', 'fr'] });
    lists = await shown();
    for (const [name, list] of Object.entries(lists).filter(([name]) => name !== 'mine')) {
      expect(list, name).toContain(german);
      expect(list, name).not.toContain(english);
    }
    // Their own questions, whatever their language; any question's own page.
    expect(lists.mine).toContain(own);
    expect((await reader.api.raw('GET', api.question(english))).status).toBe(200);

    // Null: every language again.
    expect(await saveSettings(reader, { question_languages: null })).toMatchObject({ status: 200 });
    lists = await shown();
    expect(lists.feed).toEqual(expect.arrayContaining([german, english]));
    expect(lists.search).toEqual(expect.arrayContaining([german, english]));
  });

  it('are refused with 400 on `question_languages` when not ISO 639-1 codes', async () => {
    for (const question_languages of [[], ['xx'], ['pt-BR'], 'de']) {
      const reply = await saveSettings(reader, { question_languages });
      expect(reply.status).toBe(400);
      expect(Object.keys(reply.error().errors ?? {}).map((key) => key.split('.')[0])).toEqual(['question_languages']);
    }
  });
});
