import { api, blockedSchema, passedSchema, questionPageSchema, type CreateQuestionBody } from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchDocumentOf } from '../../lib/search-text.js';
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

/** The ids a search finds for `user`, on one page of up to 100. */
async function found(user: TestUser, q: string): Promise<number[]> {
  const page = await user.api.get(`${api.search(q)}&limit=100`, questionPageSchema);
  return page.questions.map((question) => question.id);
}

/** Every word in these tests is made up, so that no other test's question (nor the quiz) matches. */
const mc = (question: string, choices: string[], tags: string[] = []): Partial<CreateQuestionBody> => ({
  question,
  choices,
  tags,
});

describe('searching questions', () => {
  it('finds a question by a word of its title, of a choice or of its tag, in any case and with or without accents', async () => {
    const byTitle = await ask(author, mc('Is the Zorblax café worth a visit?', ['Yes', 'No']));
    const byChoice = await ask(author, mc('Which drink tonight?', ['Zorblax tea', 'Water']));
    const byTag = await ask(author, mc('Where to meet?', ['Here', 'There'], ['zorblax']));
    const rating = await ask(author, {
      type: 'RS',
      question: 'How fresh is a Zorblax morning?',
      choices: [],
      tags: [],
    });
    await ask(author, mc('Nothing to see here?', ['Yes', 'No']));

    expect(new Set(await found(reader, 'zorblax'))).toEqual(new Set([byTitle, byChoice, byTag, rating]));
    expect(new Set(await found(reader, 'ZORBLAX'))).toEqual(new Set([byTitle, byChoice, byTag, rating]));
    for (const q of ['cafe', 'CAFÉ', 'Café', 'zorblax cafe']) expect(await found(reader, q), q).toEqual([byTitle]);
    expect(await found(reader, 'zorblax tea')).toEqual([byChoice]);
    // Every word must be found: a word no question holds finds nothing.
    expect(await found(reader, 'zorblax qwyntrel')).toEqual([]);
  });

  it('finds words by the start of the last one only, as people type', async () => {
    const remote = await ask(author, mc('Is Quimbly remote work here to stay?', ['Yes', 'No']));
    expect(await found(reader, 'quimbly remot')).toEqual([remote]);
    expect(await found(reader, 'quimbly remote wo')).toEqual([remote]);
    expect(await found(reader, 'quim')).toEqual([remote]);
    // Only the last word is a prefix: "remot" before another word must be the whole word.
    // ("remot" itself is the stem of "remote" in English, which PostgreSQL's search matches in an English question.)
    expect(await found(reader, 'remo quimbly')).toEqual([]);
  });

  it('lists the better match first: the words together in the title, then all in the title, then in the tag, then in a choice', async () => {
    // Asked from the best match to the worst, so that recency alone would list them the other way round.
    const together = await ask(author, mc('The plonkish widget of the year?', ['Yes', 'No']));
    const togetherNewer = await ask(author, mc('A plonkish widget again?', ['Yes', 'No']));
    const wordsApart = await ask(author, mc('Is a widget ever plonkish?', ['Yes', 'No']));
    const inTitleAndTag = await ask(author, mc('Which widget?', ['One', 'Two'], ['plonkish']));
    const tagOnly = await ask(author, mc('Any gadget?', ['One', 'Two'], ['plonkish']));
    const inChoice = await ask(author, mc('Which one?', ['Plonkish widget', 'Other']));
    expect(await found(reader, 'plonkish widget')).toEqual([
      togetherNewer,
      together,
      wordsApart,
      inTitleAndTag,
      inChoice,
    ]);
    expect(await found(reader, 'plonk')).toEqual([
      wordsApart,
      togetherNewer,
      together,
      tagOnly,
      inTitleAndTag,
      inChoice,
    ]);
  });

  it('never shows a question the reader hid, or by someone blocked either way; the author still finds their own', async () => {
    const blocker = await signUp(ctx);
    const blocked = await signUp(ctx);
    const hidden = await ask(author, mc('Trezzle hidden?', ['Yes', 'No']));
    const kept = await ask(author, mc('Trezzle kept?', ['Yes', 'No']));
    const byBlocker = await ask(blocker, mc('Trezzle by a blocker?', ['Yes', 'No']));
    const byBlocked = await ask(blocked, mc('Trezzle by someone blocked?', ['Yes', 'No']));
    expect(new Set(await found(reader, 'trezzle'))).toEqual(new Set([hidden, kept, byBlocker, byBlocked]));

    await reader.api.post(api.pass(hidden), passedSchema);
    await blocker.api.post(api.ban(reader.id), blockedSchema);
    await reader.api.post(api.ban(blocked.id), blockedSchema);
    expect(await found(reader, 'trezzle')).toEqual([kept]);
    expect(new Set(await found(blocker, 'trezzle'))).toEqual(new Set([hidden, kept, byBlocker, byBlocked]));
    expect(await found(blocked, 'trezzle')).toContain(byBlocked);
  });

  it('pages without a gap or a repeat, while questions are asked and hidden between pages', async () => {
    const ids: number[] = [];
    for (let index = 0; index < 4; index += 1)
      ids.push(await ask(author, mc(`Flumbet number ${index}?`, ['Yes', 'No'])));
    for (let index = 0; index < 3; index += 1) ids.push(await ask(author, mc(`Choice ${index}?`, ['Flumbet', 'No'])));
    for (let index = 0; index < 3; index += 1)
      ids.push(await ask(author, mc(`Tag ${index}?`, ['Yes', 'No'], ['flumbet'])));
    const expected = await found(reader, 'flumbet');
    expect(new Set(expected)).toEqual(new Set(ids));

    const seen: number[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { questions: { id: number }[]; next: string | null } = await reader.api.get(
        `${api.search('flumbet')}&limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        questionPageSchema,
      );
      seen.push(...page.questions.map((question) => question.id));
      cursor = page.next;
      pages += 1;
      // Questions of every level are asked between pages: one of a level the pages have not
      // reached yet shows in its place there; one of a level they have reached, in a search started afresh.
      await ask(author, mc(`Flumbet newer ${pages}?`, ['Yes', 'No']));
      await ask(author, mc(`Newer choice ${pages}?`, ['Flumbet', 'No']));
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => expected.includes(id))).toEqual(expected);
    const askedMeanwhile = seen.filter((id) => !expected.includes(id));
    expect(askedMeanwhile.length).toBeGreaterThan(0);
    expect(Math.min(...askedMeanwhile)).toBeGreaterThan(Math.max(...expected));
    // Where a search started now lists them: the pages put each one there.
    const afresh = await found(reader, 'flumbet');
    expect(afresh.filter((id) => seen.includes(id))).toEqual(seen);

    // A question hidden between pages is left out of the next ones, and nothing else moves.
    const numbered = await found(reader, 'flumbet number');
    const first = await reader.api.get(`${api.search('flumbet number')}&limit=2`, questionPageSchema);
    await reader.api.post(api.pass(numbered[2]), passedSchema);
    const second = await reader.api.get(
      `${api.search('flumbet number')}&limit=2&cursor=${encodeURIComponent(first.next!)}`,
      questionPageSchema,
    );
    expect([...first.questions, ...second.questions].map((question) => question.id)).toEqual(
      numbered.filter((id) => id !== numbered[2]).slice(0, 4),
    );
  });

  it('finds a question behind many newer ones, and lists many matches newest first', async () => {
    const old = await ask(author, mc('Snarvel question asked long ago?', ['Yes', 'No']));
    // More questions than a search looks through before it asks the index for the older matches (db/search-index.ts).
    const { db } = ctx.database;
    const newer: number[] = [];
    const choices = JSON.stringify(['Yes', 'No']);
    for (let batch = 0; batch < 11; batch += 1) {
      const titles = Array.from({ length: 100 }, (_, index) => `Glorpwig question ${batch * 100 + index}?`);
      const rows = await db
        .insertInto('questions')
        .values(
          titles.map((title) => ({
            user_id: author.id,
            type: 'MC',
            title,
            category_id: null,
            choice_labels: choices,
            range_min: null,
            range_max: null,
            published_at: new Date().toISOString(),
          })),
        )
        .returning('id')
        .execute();
      const ids = rows.map((row) => row.id).sort((a, b) => a - b);
      await db
        .insertInto('question_search_documents')
        .values(ids.map((id, index) => searchDocumentOf({ id, title: titles[index], choice_labels: choices }, [])))
        .execute();
      newer.push(...ids);
    }
    expect(await found(reader, 'snarv')).toEqual([old]);
    expect(await found(reader, 'glorpwig')).toEqual(newer.slice(-100).reverse());
    const first = await reader.api.get(`${api.search('glorpwig question 5')}&limit=3`, questionPageSchema);
    const second = await reader.api.get(
      `${api.search('glorpwig question 5')}&limit=3&cursor=${encodeURIComponent(first.next!)}`,
      questionPageSchema,
    );
    // The last word is a prefix: 5, 50 to 59 and 500 to 599, the newest first.
    const numbered = newer.filter((_, index) => String(index).startsWith('5'));
    expect([...first.questions, ...second.questions].map((question) => question.id)).toEqual(
      numbered.reverse().slice(0, 6),
    );
  });

  it('finds a question asked since the same words were searched, at once', async () => {
    expect(await found(reader, 'quindle')).toEqual([]);
    const asked = await ask(author, mc('Quindle or not?', ['Yes', 'No']));
    expect(await found(reader, 'quindle')).toEqual([asked]);
    const newer = await ask(author, mc('Another quindle?', ['Yes', 'No']));
    expect(await found(reader, 'quindle')).toEqual([newer, asked]);
  });

  it('finds nothing for a query without letters or digits, and refuses a missing, blank or too long query or a bad cursor', async () => {
    expect(await reader.api.get(api.search('?!…'), questionPageSchema)).toEqual({ questions: [], next: null });
    for (const url of [
      '/api/polls/search/',
      api.search('   '),
      api.search('x'.repeat(101)),
      `${api.search('flumbet')}&cursor=nonsense`,
    ]) {
      const reply = await reader.api.raw('GET', url);
      expect(reply.status, url).toBe(400);
      expect(Object.keys(reply.error().errors ?? {}), url).toEqual([url.includes('cursor') ? 'cursor' : 'q']);
    }
  });
});
