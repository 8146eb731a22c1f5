import {
  answerBodySchema,
  api,
  blockedSchema,
  connectedSchema,
  feedSchema,
  likedSchema,
  passedSchema,
  type QuestionPage,
  questionPageSchema,
  questionSchema,
} from '@pollscope/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ask, createTestApp, signUp, type TestContext, type TestUser } from '../../test/helper.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

async function page(user: TestUser, url: string): Promise<QuestionPage> {
  const reply = await user.api.raw('GET', url);
  expect(reply.status, `${url}: ${reply.text}`).toBe(200);
  return reply.parse(questionPageSchema);
}

async function idsIn(user: TestUser, url: string): Promise<number[]> {
  return (await page(user, url)).questions.map((question) => question.id);
}

/** Every page of a list, following `next`, checking each page's size. */
async function allPages(user: TestUser, url: string, limit: number): Promise<number[][]> {
  const pages: number[][] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const current = await page(user, `${url}?${query}`);
    pages.push(current.questions.map((question) => question.id));
    if (current.next !== null) expect(current.questions).toHaveLength(limit);
    cursor = current.next;
  } while (cursor !== null && pages.length < 50);
  return pages;
}

describe('the feed', () => {
  it('holds the questions of the users the caller follows, newest first, and nobody else’s', async () => {
    const reader = await signUp(ctx);
    const followed = await signUp(ctx);
    const alsoFollowed = await signUp(ctx);
    const stranger = await signUp(ctx);
    await reader.api.post(api.follow(followed.id), connectedSchema);
    await reader.api.post(api.follow(alsoFollowed.id), connectedSchema);
    const first = await ask(followed, { question: 'First?' });
    await ask(stranger, { question: 'Not followed?' });
    const second = await ask(alsoFollowed, { question: 'Second?' });
    await ask(reader, { question: 'My own?' });
    const third = await ask(followed, { question: 'Third?' });

    const reply = await reader.api.raw('GET', api.feed);
    const feed = reply.parse(feedSchema);
    expect(feed.questions.map((question) => question.id)).toEqual([third, second, first]);
    expect(feed.next).toBeNull();
  });

  it('is empty for someone who follows nobody', async () => {
    const loner = await signUp(ctx);
    const feed = await loner.api.get(api.feed, feedSchema);
    expect(feed.questions).toEqual([]);
    expect(feed.next).toBeNull();
  });

  it('drops an author the caller unfollows', async () => {
    const reader = await signUp(ctx);
    const author = await signUp(ctx);
    await reader.api.post(api.follow(author.id), connectedSchema);
    const id = await ask(author);
    expect(await idsIn(reader, api.feed)).toEqual([id]);
    await reader.api.post(api.unfollow(author.id), connectedSchema);
    expect(await idsIn(reader, api.feed)).toEqual([]);
  });

  it('changes at once with a follow, and with a block by either side', async () => {
    const reader = await signUp(ctx);
    const author = await signUp(ctx);
    const id = await ask(author);
    expect(await idsIn(reader, api.feed)).toEqual([]);
    await reader.api.post(api.follow(author.id), connectedSchema);
    expect(await idsIn(reader, api.feed)).toEqual([id]);
    // Blocked by the author: the reader made no call, yet their feed changes.
    await author.api.post(api.ban(reader.id), blockedSchema);
    expect(await idsIn(reader, api.feed)).toEqual([]);
    await author.api.post(api.unban(reader.id), blockedSchema);
    await reader.api.post(api.follow(author.id), connectedSchema);
    expect(await idsIn(reader, api.feed)).toEqual([id]);
  });
});

describe('a category', () => {
  it('lists its questions by category id, newest first, each naming the category', async () => {
    const author = await signUp(ctx);
    const reader = await signUp(ctx);
    const sports = 2;
    const before = await idsIn(reader, api.category(sports));
    const first = await ask(author, { question: 'Best sport?', category: sports });
    await ask(author, { question: 'Best film?', category: 4 });
    await ask(author, { question: 'No category?' });
    const second = await ask(author, { question: 'Best team?', category: sports });

    const list = await page(reader, api.category(sports));
    expect(list.questions.map((question) => question.id)).toEqual([second, first, ...before]);
    expect(
      list.questions.every((question) => question.category?.id === sports && question.category.name === 'Sports'),
    ).toBe(true);
  });

  it('is 404 for an unknown category and 400 for an id that is not one', async () => {
    const reader = await signUp(ctx);
    const unknown = await reader.api.raw('GET', api.category(9999));
    expect(unknown.status).toBe(404);
    expect(unknown.error()).toEqual({ message: 'No such category' });
    const bad = await reader.api.raw('GET', api.category('sports'));
    expect(bad.status).toBe(400);
    expect(bad.error().errors).toHaveProperty('category');
  });
});

describe('a tag', () => {
  it('lists the questions with that tag by name, whatever the case', async () => {
    const author = await signUp(ctx);
    const reader = await signUp(ctx);
    const tag = `Pets${author.id}`;
    const first = await ask(author, { tags: [tag] });
    await ask(author, { tags: [`other${author.id}`] });
    const second = await ask(author, { tags: [tag.toLowerCase()] });

    expect(await idsIn(reader, api.tag(tag))).toEqual([second, first]);
    expect(await idsIn(reader, api.tag(tag.toUpperCase()))).toEqual([second, first]);
    const list = await page(reader, api.tag(tag));
    expect(list.questions[0].tags).toEqual([{ name: tag.toLowerCase() }]);
  });

  it('is an empty list for a tag nobody used, and 400 for a name longer than a tag', async () => {
    const reader = await signUp(ctx);
    expect(await page(reader, api.tag('nobody-uses-this'))).toEqual({ questions: [], next: null });
    const long = await reader.api.raw('GET', api.tag('x'.repeat(21)));
    expect(long.status).toBe(400);
    expect(long.error().errors).toHaveProperty('tag');
  });
});

describe('a user’s lists', () => {
  it('hold what they asked, answered and liked, the latest action first, for them and for others', async () => {
    const person = await signUp(ctx);
    const author = await signUp(ctx);
    const visitor = await signUp(ctx);
    const asked = [await ask(person, { question: 'Mine 1?' }), await ask(person, { question: 'Mine 2?' })];
    const [a, b, c] = [
      await ask(author, { question: 'A?' }),
      await ask(author, { question: 'B?' }),
      await ask(author, { question: 'C?' }),
    ];
    // Answered and liked in an order other than the questions' own.
    await person.api.post(api.answer(b), answerBodySchema, { choice: 1 }, questionSchema);
    await person.api.post(api.answer(a), answerBodySchema, { choice: 2 }, questionSchema);
    await person.api.post(api.answer(c), answerBodySchema, { choice: 1 }, questionSchema);
    await person.api.post(api.like(c), likedSchema);
    await person.api.post(api.like(a), likedSchema);

    expect(await idsIn(person, api.myQuestions)).toEqual([...asked].reverse());
    expect(await idsIn(person, api.myAnswered)).toEqual([c, a, b]);
    expect(await idsIn(person, api.myLiked)).toEqual([a, c]);
    expect(await idsIn(visitor, api.userQuestions(person.id))).toEqual([...asked].reverse());
    expect(await idsIn(visitor, api.userAnswered(person.id))).toEqual([c, a, b]);
    expect(await idsIn(visitor, api.userLiked(person.id))).toEqual([a, c]);

    // The visitor sees the questions as themselves: no result before their own vote, not liked.
    const seen = await page(visitor, api.userAnswered(person.id));
    expect(seen.questions.map((question) => [question.result, question.answer, question.liked])).toEqual([
      [null, null, false],
      [null, null, false],
      [null, null, false],
    ]);
    const own = await page(person, api.myAnswered);
    expect(own.questions.map((question) => question.answer?.choice)).toEqual([1, 2, 1]);
  });

  it('are 404 for an unknown user', async () => {
    const reader = await signUp(ctx);
    for (const url of [api.userQuestions(99999), api.userAnswered(99999), api.userLiked(99999)]) {
      const reply = await reader.api.raw('GET', url);
      expect(reply.status, url).toBe(404);
      expect(reply.error()).toEqual({ message: 'No such user' });
    }
  });
});

describe('what no list shows', () => {
  it('leaves out a passed question everywhere, and shows it again once unpassed', async () => {
    const reader = await signUp(ctx);
    const author = await signUp(ctx);
    await reader.api.post(api.follow(author.id), connectedSchema);
    const tag = `passed${author.id}`;
    const id = await ask(author, { tags: [tag], category: 5 });
    await reader.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
    await reader.api.post(api.like(id), likedSchema);
    const lists = [
      api.feed,
      api.category(5),
      api.tag(tag),
      api.userQuestions(author.id),
      api.myAnswered,
      api.myLiked,
      api.userAnswered(reader.id),
      api.userLiked(reader.id),
    ];
    for (const list of lists) expect(await idsIn(reader, list), list).toContain(id);

    expect(await reader.api.post(api.pass(id), passedSchema)).toEqual({ passed: true });
    for (const list of lists) expect(await idsIn(reader, list), list).not.toContain(id);
    // Others still see it.
    expect(await idsIn(author, api.userAnswered(reader.id))).toContain(id);

    await reader.api.post(api.unpass(id), passedSchema);
    for (const list of lists) expect(await idsIn(reader, list), list).toContain(id);
  });

  it('leaves out the questions of a user the caller blocked, and of a user who blocked the caller', async () => {
    const reader = await signUp(ctx);
    const blockedByReader = await signUp(ctx);
    const blockerOfReader = await signUp(ctx);
    const friend = await signUp(ctx);
    const tag = `blocks${reader.id}`;
    const hidden = [
      await ask(blockedByReader, { tags: [tag], category: 6 }),
      await ask(blockerOfReader, { tags: [tag], category: 6 }),
    ];
    const shown = await ask(friend, { tags: [tag], category: 6 });
    for (const id of [...hidden, shown]) {
      await friend.api.post(api.answer(id), answerBodySchema, { choice: 1 }, questionSchema);
      await friend.api.post(api.like(id), likedSchema);
    }
    await reader.api.post(api.follow(blockedByReader.id), connectedSchema);
    await reader.api.post(api.follow(blockerOfReader.id), connectedSchema);
    await reader.api.post(api.follow(friend.id), connectedSchema);
    await reader.api.post(api.ban(blockedByReader.id), blockedSchema);
    await blockerOfReader.api.post(api.ban(reader.id), blockedSchema);

    const lists = [api.feed, api.category(6), api.tag(tag), api.userAnswered(friend.id), api.userLiked(friend.id)];
    for (const list of lists) {
      const ids = await idsIn(reader, list);
      expect(ids, list).toContain(shown);
      for (const id of hidden) expect(ids, list).not.toContain(id);
    }
    expect(await idsIn(reader, api.userQuestions(blockedByReader.id))).toEqual([]);
    expect(await idsIn(reader, api.userQuestions(blockerOfReader.id))).toEqual([]);
    // The friend, who blocked nobody, sees all three.
    for (const id of [...hidden, shown]) expect(await idsIn(friend, api.tag(tag))).toContain(id);

    // Lifting either block brings its questions back.
    await reader.api.post(api.unban(blockedByReader.id), blockedSchema);
    await blockerOfReader.api.post(api.unban(reader.id), blockedSchema);
    expect(await idsIn(reader, api.tag(tag))).toEqual([shown, ...hidden].sort((x, y) => y - x));
  });
});

describe('pages', () => {
  it('walk a long list in pages of the limit with no question twice and none missing', async () => {
    const author = await signUp(ctx);
    const reader = await signUp(ctx);
    await reader.api.post(api.follow(author.id), connectedSchema);
    const tag = `paged${author.id}`;
    const asked: number[] = [];
    const travel = 8;
    for (let index = 0; index < 23; index += 1)
      asked.push(await ask(author, { question: `Question ${index}?`, tags: [tag], category: travel }));
    for (const id of asked) {
      await reader.api.post(api.answer(id), answerBodySchema, { choice: 1 + (id % 2) }, questionSchema);
      await reader.api.post(api.like(id), likedSchema);
    }
    const newestFirst = [...asked].reverse();

    for (const url of [
      api.feed,
      api.category(travel),
      api.tag(tag),
      api.userQuestions(author.id),
      api.myAnswered,
      api.myLiked,
      api.userAnswered(reader.id),
      api.userLiked(reader.id),
    ]) {
      const pages = await allPages(reader, url, 5);
      expect(
        pages.map((ids) => ids.length),
        url,
      ).toEqual([5, 5, 5, 5, 3]);
      expect(pages.flat(), url).toEqual(newestFirst);
    }
    expect((await allPages(reader, api.tag(tag), 23)).flat()).toEqual(newestFirst);
    expect(await allPages(reader, api.tag(tag), 100)).toEqual([newestFirst]);
  });

  it('neither repeat nor skip a question when new ones are asked between pages', async () => {
    const author = await signUp(ctx);
    const reader = await signUp(ctx);
    const asked: number[] = [];
    for (let index = 0; index < 6; index += 1) asked.push(await ask(author, { question: `Early ${index}?` }));
    const first = await page(reader, `${api.userQuestions(author.id)}?limit=4`);
    const later = await ask(author, { question: 'Asked while reading?' });
    const second = await page(reader, `${api.userQuestions(author.id)}?limit=4&cursor=${first.next}`);
    expect([...first.questions, ...second.questions].map((question) => question.id)).toEqual([...asked].reverse());
    expect(second.next).toBeNull();
    expect(await idsIn(reader, api.userQuestions(author.id))).toEqual([later, ...[...asked].reverse()]);
  });

  it('default to 20 questions and take a limit from 1 to 100', async () => {
    const author = await signUp(ctx);
    for (let index = 0; index < 21; index += 1) await ask(author, { question: `Many ${index}?` });
    const defaultPage = await page(author, api.myQuestions);
    expect(defaultPage.questions).toHaveLength(20);
    expect(defaultPage.next).not.toBeNull();
    expect((await page(author, `${api.myQuestions}?limit=1`)).questions).toHaveLength(1);
    expect((await page(author, `${api.myQuestions}?limit=100`)).questions).toHaveLength(21);

    for (const limit of ['0', '101', '-1', '2.5', 'ten']) {
      const reply = await author.api.raw('GET', `${api.myQuestions}?limit=${limit}`);
      expect(reply.status, limit).toBe(400);
      const error = reply.error();
      expect(error.errors, limit).toHaveProperty('limit');
      expect(error.message).toBe(error.errors?.limit);
    }
  });

  it('refuse a cursor they did not give with 400', async () => {
    const reader = await signUp(ctx);
    const encoded = (text: string) => Buffer.from(text).toString('base64url');
    for (const cursor of [
      'garbage',
      'k12',
      encoded('12'),
      encoded('k-1'),
      encoded('k2147483648'),
      encoded(`k${'9'.repeat(16)}`),
    ]) {
      for (const url of [api.feed, api.myAnswered, api.tag('any')]) {
        const reply = await reader.api.raw('GET', `${url}?cursor=${encodeURIComponent(cursor)}`);
        expect(reply.status, `${url} ${cursor}`).toBe(400);
        expect(reply.error()).toEqual({
          message: 'Invalid cursor',
          errors: { cursor: 'Use the next value of the previous page' },
        });
      }
    }
  });
});
